// pkg:oci purls split into name, version and the qualifiers icatctl reads, and written for an image;
// package purls reduced to what VEX matching compares.
#include "ingest/purl.hpp"

#include <cctype>

#include "icat/http.hpp"
#include "icat/text.hpp"

namespace icat::ctl {

std::optional<OciPurl> ParseOciPurl(std::string_view purl) {
  if (Lower(purl.substr(0, 8)) != "pkg:oci/") return std::nullopt;
  std::string_view rest = purl.substr(8);
  std::string_view qualifiers;
  if (size_t hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  if (size_t question = rest.find('?'); question != std::string_view::npos) {
    qualifiers = rest.substr(question + 1);
    rest = rest.substr(0, question);
  }
  OciPurl oci;
  // The version follows the last '@' of the name (an OCI purl has no namespace).
  if (size_t at = rest.rfind('@'); at != std::string_view::npos) {
    oci.version = UrlDecode(rest.substr(at + 1));
    rest = rest.substr(0, at);
  }
  oci.name = UrlDecode(rest);
  if (oci.name.empty() || oci.name.find('/') != std::string::npos) return std::nullopt;
  while (!qualifiers.empty()) {
    size_t amp = qualifiers.find('&');
    std::string_view pair = qualifiers.substr(0, amp);
    qualifiers = amp == std::string_view::npos ? std::string_view() : qualifiers.substr(amp + 1);
    size_t equals = pair.find('=');
    if (equals == std::string_view::npos) continue;
    std::string key = Lower(pair.substr(0, equals));  // qualifier keys are case-insensitive
    if (key == "repository_url") oci.repository_url = UrlDecode(pair.substr(equals + 1));
    if (key == "tag") oci.tag = UrlDecode(pair.substr(equals + 1));
  }
  return oci;
}

std::string ImagePurl(std::string_view repository, std::string_view digest) {
  std::string_view name = repository.substr(repository.rfind('/') + 1);  // the whole text without a '/'
  return "pkg:oci/" + std::string(name) + "@" + UrlEncode(digest) + "?repository_url=" + UrlEncode(repository);
}

std::string PurlKey(std::string_view purl) { return std::string(purl.substr(0, purl.find_first_of("?#"))); }

std::string PurlKeyAnyVersion(std::string_view purl) {
  std::string key = PurlKey(purl);
  size_t at = key.rfind('@');
  return at != std::string::npos && key.find('/', at) == std::string::npos ? key.substr(0, at) : key;
}

}  // namespace icat::ctl
