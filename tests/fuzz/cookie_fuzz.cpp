// The Cookie header (common/src/http.cpp CookieValue): the console's refresh token among whatever
// else the browser sends. A value found is part of the header and holds no separator.
#include "fuzz.hpp"
#include "icat/http.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  for (std::string_view name : {std::string_view("icat_refresh"), std::string_view("a")}) {
    std::optional<std::string> value = icat::CookieValue(text, name);
    if (!value) continue;
    icat::fuzz::Expect(value->size() < text.size(), "a value is shorter than the header");
    icat::fuzz::Expect(value->find(';') == std::string::npos, "a value holds no ';'");
    icat::fuzz::Expect(text.find(*value) != std::string_view::npos, "a value is a part of the header");
  }
  icat::Request request;
  request.headers["cookie"] = std::string(text);
  (void)request.Cookie("icat_refresh");
  return 0;
}
