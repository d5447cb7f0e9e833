// One-time codes (RFC 4226, RFC 6238), base32 (RFC 4648), the otpauth URI and recovery codes.
#include "icat/totp.hpp"

#include "icat/crypto.hpp"
#include "icat/http.hpp"

namespace icat {

namespace {

constexpr std::string_view kBase32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
constexpr int kRecoveryCodeGroups = 4, kRecoveryGroupChars = 4;  // 16 base32 characters: 80 bits

int Base32Value(char c) {
  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  size_t at = kBase32Alphabet.find(c);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

}  // namespace

std::string Hotp(std::string_view key, uint64_t counter, int digits) {
  char message[8];
  for (int i = 7; i >= 0; i--, counter >>= 8) message[i] = static_cast<char>(counter & 0xff);
  std::string mac = HmacSha1(key, std::string_view(message, sizeof message));
  // Dynamic truncation (RFC 4226 section 5.3): 31 bits from the offset the last nibble names.
  size_t offset = static_cast<unsigned char>(mac[19]) & 0x0f;
  uint32_t bits = (static_cast<uint32_t>(static_cast<unsigned char>(mac[offset]) & 0x7f) << 24) |
                  (static_cast<uint32_t>(static_cast<unsigned char>(mac[offset + 1])) << 16) |
                  (static_cast<uint32_t>(static_cast<unsigned char>(mac[offset + 2])) << 8) |
                  static_cast<uint32_t>(static_cast<unsigned char>(mac[offset + 3]));
  uint32_t modulus = 1;
  for (int i = 0; i < digits; i++) modulus *= 10;
  std::string code = std::to_string(bits % modulus);
  return std::string(static_cast<size_t>(digits) - code.size(), '0') + code;
}

uint64_t TotpStep(int64_t unix_seconds) { return static_cast<uint64_t>(unix_seconds / kTotpStepSeconds); }

std::string Totp(std::string_view key, int64_t unix_seconds, int digits) {
  return Hotp(key, TotpStep(unix_seconds), digits);
}

std::optional<uint64_t> MatchTotp(std::string_view key, std::string_view code, int64_t now, uint64_t last_step) {
  std::optional<uint64_t> matched;
  uint64_t current = TotpStep(now);
  // Every candidate is computed and compared, so the time taken says nothing of which one matched.
  for (uint64_t step = current > 0 ? current - 1 : 0; step <= current + 1; step++) {
    if (ConstantTimeEqual(Hotp(key, step), code) && step > last_step && !matched) matched = step;
  }
  return matched;
}

std::string Base32Encode(std::string_view bytes) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 5) {
      out += kBase32Alphabet[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += kBase32Alphabet[(buffer << (5 - bits)) & 31];
  return out;
}

std::optional<std::string> Base32Decode(std::string_view text) {
  // 1, 3 and 6 characters past a multiple of 8 leave bits no whole byte fills: no encoding ends so.
  size_t tail = text.size() % 8;
  if (tail == 1 || tail == 3 || tail == 6) return std::nullopt;
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    int value = Base32Value(c);
    if (value < 0) return std::nullopt;
    buffer = (buffer << 5) | static_cast<uint32_t>(value);
    bits += 5;
    if (bits >= 8) {
      out += static_cast<char>((buffer >> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return out;
}

std::string OtpauthUri(std::string_view issuer, std::string_view account, std::string_view secret_base32) {
  return "otpauth://totp/" + UrlEncode(issuer) + ":" + UrlEncode(account) + "?secret=" + std::string(secret_base32) +
         "&issuer=" + UrlEncode(issuer) + "&algorithm=SHA1&digits=" + std::to_string(kTotpDigits) +
         "&period=" + std::to_string(kTotpStepSeconds);
}

std::vector<std::string> NewRecoveryCodes() {
  std::vector<std::string> codes;
  for (int i = 0; i < kRecoveryCodeCount; i++) {
    std::string letters = NormalRecoveryCode(Base32Encode(RandomBytes(10)));  // 80 bits, 16 characters
    std::string code;
    for (int group = 0; group < kRecoveryCodeGroups; group++) {
      if (group > 0) code += '-';
      code += letters.substr(static_cast<size_t>(group * kRecoveryGroupChars), kRecoveryGroupChars);
    }
    codes.push_back(code);
  }
  return codes;
}

std::string NormalRecoveryCode(std::string_view code) {
  std::string out;
  for (char c : code) {
    if (c == '-' || c == ' ') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

}  // namespace icat
