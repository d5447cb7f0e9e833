// Query strings (common/src/http.cpp): percent-decoding, parameters in order, look-up by name.
#include "fuzz.hpp"
#include "icat/http.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  std::string decoded = icat::UrlDecode(text);
  icat::fuzz::Expect(decoded.size() <= text.size(), "decoding never lengthens");
  icat::Request request;
  request.query = std::string(text);
  std::vector<std::pair<std::string, std::string>> parameters = request.QueryParameters();
  if (!parameters.empty()) {
    icat::fuzz::Expect(request.Query(parameters.front().first).has_value(), "the first parameter is found by name");
  }
  (void)request.Query("q");
  return 0;
}
