// JWT HS256: compact form, constant-time signature check, strict claims.
#include "icat/jwt.hpp"

#include "icat/crypto.hpp"
#include "icat/json.hpp"
#include "icat/vocabulary.hpp"

namespace icat {

namespace {
constexpr long long kClockSkewSeconds = 60;

std::string HeaderJson() { return R"({"alg":"HS256","typ":"JWT"})"; }

std::string ClaimsJson(const AccessClaims& c) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "iss", kJwtIssuer);
  WriteString(w, "aud", kJwtAudience);
  WriteString(w, "sub", c.user_id);
  WriteString(w, "tid", c.tenant_id);
  WriteString(w, "ten", c.tenant);
  WriteString(w, "role", c.role);
  WriteInt(w, "iat", c.issued_at);
  WriteInt(w, "exp", c.expires_at);
  WriteString(w, "jti", c.token_id);
  WriteString(w, "sid", c.session_id);
  w.EndObject();
  return buffer.GetString();
}

// A part is read only in the spelling IssueAccessToken writes (Base64UrlDecodeCanonical): padding,
// whitespace or set unused bits are refused, so a token has one form.
std::optional<rapidjson::Document> DecodeJsonPart(std::string_view part) {
  std::optional<std::string> text = Base64UrlDecodeCanonical(part);
  if (!text) return std::nullopt;
  JsonRead read = ReadJson(*text, kMaxBodyDepth);
  if (!read.error.empty() || !read.document.IsObject()) return std::nullopt;
  return std::move(read.document);
}

bool StringIs(const rapidjson::Value& object, const char* name, std::string_view expected) {
  return object.HasMember(name) && object[name].IsString() && std::string_view(object[name].GetString()) == expected;
}

std::optional<std::string> StringOf(const rapidjson::Value& object, const char* name) {
  if (!object.HasMember(name) || !object[name].IsString() || object[name].GetStringLength() == 0) return std::nullopt;
  return std::string(object[name].GetString(), object[name].GetStringLength());
}
}  // namespace

std::string IssueAccessToken(const AccessClaims& claims, std::string_view secret) {
  std::string signing_input = Base64UrlEncode(HeaderJson()) + "." + Base64UrlEncode(ClaimsJson(claims));
  return signing_input + "." + Base64UrlEncode(HmacSha256(secret, signing_input));
}

std::optional<AccessClaims> VerifyAccessToken(std::string_view token, std::string_view secret, long long now) {
  size_t first = token.find('.');
  size_t second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) return std::nullopt;
  std::optional<rapidjson::Document> header = DecodeJsonPart(token.substr(0, first));
  // The algorithm is allow-listed, never taken from the token: "none" and RS/ES confusions fail here.
  if (!header || !StringIs(*header, "alg", "HS256")) return std::nullopt;
  std::optional<std::string> signature = Base64UrlDecodeCanonical(token.substr(second + 1));
  if (!signature || !ConstantTimeEqual(*signature, HmacSha256(secret, token.substr(0, second)))) return std::nullopt;

  std::optional<rapidjson::Document> claims = DecodeJsonPart(token.substr(first + 1, second - first - 1));
  if (!claims || !StringIs(*claims, "iss", kJwtIssuer) || !StringIs(*claims, "aud", kJwtAudience)) return std::nullopt;
  const rapidjson::Value& c = *claims;
  if (!c.HasMember("iat") || !c["iat"].IsInt64() || !c.HasMember("exp") || !c["exp"].IsInt64()) return std::nullopt;
  AccessClaims out;
  out.issued_at = c["iat"].GetInt64();
  out.expires_at = c["exp"].GetInt64();
  if (out.expires_at <= now || out.issued_at > now + kClockSkewSeconds) return std::nullopt;
  // Sign-in never issues a token living longer than kAccessTokenSeconds, so one claiming more was
  // not made by it; every token accepted is dead within kAccessTokenSeconds plus the skew. Written
  // without exp - iat, which could overflow (exp > now here, so exp - kAccessTokenSeconds cannot).
  if (out.expires_at <= out.issued_at || out.issued_at < out.expires_at - kAccessTokenSeconds) return std::nullopt;
  auto sub = StringOf(c, "sub"), tid = StringOf(c, "tid"), ten = StringOf(c, "ten"), role = StringOf(c, "role"),
       jti = StringOf(c, "jti"), sid = StringOf(c, "sid");
  if (!sub || !tid || !ten || !role || !jti || !sid) return std::nullopt;
  if (!IsOneOf(*role, kRoles)) return std::nullopt;
  out.user_id = *sub;
  out.tenant_id = *tid;
  out.tenant = *ten;
  out.role = *role;
  out.token_id = *jti;
  out.session_id = *sid;
  return out;
}

}  // namespace icat
