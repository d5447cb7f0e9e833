// The AdmissionReview reader (handlers/admission/review.cpp) on a body the safe reader accepted,
// then each image reference it found (reference.cpp) and the AdmissionReview answer.
#include "../../handlers/admission/admission.hpp"
#include "fuzz.hpp"
#include "icat/errors.hpp"
#include "icat/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    rapidjson::Document body = icat::ParseJson(icat::fuzz::Text(data, size));
    icat::admission::AdmissionRequest request = icat::admission::ReadAdmissionReview(body);
    for (const icat::admission::ImageUse& use : request.images) {
      if (auto reference = icat::admission::ParseImageReference(use.reference)) {
        icat::fuzz::Expect(icat::admission::ParseImageReference(reference->Normalised()).has_value(),
                           "a normalised reference parses again");
      }
    }
    icat::admission::Verdict verdict;
    verdict.allowed = request.images.empty();
    icat::JsonRead answer =
        icat::ReadJson(icat::admission::AdmissionResponseJson(request.uid, verdict), icat::kMaxBodyDepth);
    icat::fuzz::Expect(answer.error.empty(), "the answer is JSON");
  } catch (const icat::ApiError& e) {
    icat::fuzz::Expect(e.error() == icat::Error::kMALFORMED_JSON || e.error() == icat::Error::kVALIDATION_ERROR,
                       "a bad review is MALFORMED_JSON or VALIDATION_ERROR");
  }
  return 0;
}
