// API keys (common/src/api_key.cpp): the format and checksum check every key passes before any
// look-up, and the scope names.
#include "fuzz.hpp"
#include "icat/api_key.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  if (icat::ApiKeyWellFormed(text, "icat")) {
    icat::fuzz::Expect(text.rfind("icat_live_", 0) == 0, "a well-formed key has the prefix");
  }
  (void)icat::ApiKeyWellFormed(text, "");
  (void)icat::IsScope(text);
  return 0;
}
