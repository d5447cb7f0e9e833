// icat's IMAGE[:TAG][@DIGEST] (tools/icat/rules.cpp ParseImageSpec). An accepted spec says why not
// nothing, and its parts stand on their own: the image alone parses as that image's latest version,
// the tag is a tag, the digest a sha256 digest, and the parts written again parse the same.
#include "../../tools/icat/rules.hpp"
#include "fuzz.hpp"
#include "icat/image_reference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string why;
  std::optional<icat::client::ImageSpec> spec = icat::client::ParseImageSpec(icat::fuzz::Text(data, size), &why);
  if (!spec) {
    icat::fuzz::Expect(!why.empty(), "a refused spec says why");
    return 0;
  }
  icat::fuzz::Expect(!spec->image.empty(), "an accepted spec names an image");
  if (spec->tag) icat::fuzz::Expect(icat::IsImageTag(*spec->tag), "the tag is a tag");
  if (spec->digest) {
    icat::fuzz::Expect(spec->digest->rfind("sha256:", 0) == 0 && icat::IsImageDigest(*spec->digest),
                       "the digest is a sha256 digest");
  }
  std::string image_why;
  std::optional<icat::client::ImageSpec> alone = icat::client::ParseImageSpec(spec->image, &image_why);
  icat::fuzz::Expect(alone && alone->Latest() && alone->image == spec->image,
                     "the image alone is that image's latest version");
  std::string again = spec->image + (spec->tag ? ":" + *spec->tag : "") + (spec->digest ? "@" + *spec->digest : "");
  std::optional<icat::client::ImageSpec> reparsed = icat::client::ParseImageSpec(again, &image_why);
  icat::fuzz::Expect(reparsed && reparsed->image == spec->image && reparsed->tag == spec->tag &&
                         reparsed->digest == spec->digest,
                     "the parts written again parse the same");
  return 0;
}
