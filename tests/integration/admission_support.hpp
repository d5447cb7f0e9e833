// What the admission tests share: posting an AdmissionReview with an admission key, and reading
// the AdmissionReview it answers.
#pragma once

#include <string>
#include <vector>

#include "support.hpp"

namespace icat::test {

// An AdmissionReview v1 of a Pod CREATE in namespace "web" with one container running image.
std::string PodReview(const std::string& uid, const std::string& image);

// POST /v1/admission as the API server sends it: Bearer key, a JSON body.
Response PostReview(const std::string& key, const std::string& body);
// POST /v1/admission/<key> as a managed cluster's API server sends it: no credential header.
Response PostReviewKeyInPath(const std::string& key, const std::string& body);

struct AdmissionAnswer {
  bool allowed = false;
  std::string message;  // status.message when denied
  std::vector<std::string> warnings;
};

// Asserts a 200 AdmissionReview v1 answering uid (status with code 403 exactly when denied,
// warnings an array when present); returns its verdict.
AdmissionAnswer ExpectAnswer(const Response& r, const std::string& uid);

// Asserts a refused credential answered as a 200 AdmissionReview for uid: allowed false, status
// code (401, 403 or 429) with its reason, a message naming error (UNAUTHENTICATED, ...) and holding
// fragment. Returns the message.
std::string ExpectRefusal(const Response& r, const std::string& uid, int code, const std::string& error,
                          const std::string& fragment);

}  // namespace icat::test
