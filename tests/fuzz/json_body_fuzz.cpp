// Request JSON bodies: the safe reader (icat::ReadJson, icat::ParseJson). A text it accepts is
// written back (a recursive Writer walk, safe within the nesting limit) and must read again. (Not
// necessarily to the same text: RapidJSON's default number parsing may move a double by one ulp.)
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "fuzz.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"

namespace {

std::string Written(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  try {
    (void)icat::ParseJson(text);
  } catch (const icat::ApiError& e) {
    icat::fuzz::Expect(e.error() == icat::Error::kMALFORMED_JSON, "ParseJson throws only MALFORMED_JSON");
  }
  icat::JsonRead read = icat::ReadJson(text, icat::kMaxBodyDepth);
  if (!read.error.empty()) return 0;
  std::string once = Written(read.document);
  icat::JsonRead again = icat::ReadJson(once, icat::kMaxBodyDepth);
  icat::fuzz::Expect(again.error.empty(), "what the writer wrote reads again");
  icat::fuzz::Expect(again.document.GetType() == read.document.GetType(), "and to a value of the same type");
  return 0;
}
