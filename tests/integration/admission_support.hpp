// What the admission tests share: posting an AdmissionReview with an admission key, and reading
// the AdmissionReview it answers.
#pragma once

#include <string>
#include <vector>

#include "support.hpp"

namespace icat::test {

// POST /v1/admission as the API server sends it: Bearer key, a JSON body.
Response PostReview(const std::string& key, const std::string& body);

struct AdmissionAnswer {
  bool allowed = false;
  std::string message;  // status.message when denied
  std::vector<std::string> warnings;
};

// Asserts a 200 AdmissionReview v1 answering uid (status with code 403 exactly when denied,
// warnings an array when present); returns its verdict.
AdmissionAnswer ExpectAnswer(const Response& r, const std::string& uid);

}  // namespace icat::test
