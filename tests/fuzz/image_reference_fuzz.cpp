// Image references and version names as GET /v1/images?reference= and /v1/images/{id}/versions/
// {versionId} read them straight from the URL (common/src/image_reference.cpp), without the
// AdmissionReview around them that admission_review needs first.
#include <string>

#include "fuzz.hpp"
#include "icat/image_reference.hpp"
#include "icat/paging.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = icat::fuzz::Text(data, size);
  if (std::optional<icat::ImageReference> ref = icat::ParseImageReference(text)) {
    std::optional<icat::ImageReference> again = icat::ParseImageReference(ref->Normalised());
    icat::fuzz::Expect(again.has_value(), "a normalised reference parses again");
    icat::fuzz::Expect(again->Normalised() == ref->Normalised(), "normalising twice changes nothing");
    icat::fuzz::Expect(!ref->digest || icat::IsImageDigest(*ref->digest), "a reference's digest is a digest");
    icat::fuzz::Expect(icat::IsImageTag(ref->EffectiveTag()), "a reference's tag is a tag");
  }
  if (std::optional<icat::VersionRef> version = icat::ParseVersionRef(text)) {
    icat::fuzz::Expect(version->tag == std::string(text), "a version ref is looked up by its tag");
    icat::fuzz::Expect(version->id.has_value() == icat::IsUuid(text), "only a UUID form is looked up by id");
    icat::fuzz::Expect(icat::IsImageTag(text), "a version ref is a tag");
  }
  if (icat::IsImageDigest(text)) {
    icat::fuzz::Expect(size == 71 || size == 103 || size == 135, "a digest has its algorithm's length");
  }
  return 0;
}
