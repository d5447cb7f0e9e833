// A second factor for people who sign in with a password: one-time codes (HOTP, RFC 4226; TOTP,
// RFC 6238 with SHA-1, 6 digits, 30-second steps, as every authenticator app does), the base32
// secret (RFC 4648, no padding), the otpauth:// URI that apps read from a QR code, and recovery codes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace icat {

inline constexpr int kTotpDigits = 6;
inline constexpr int64_t kTotpStepSeconds = 30;
inline constexpr size_t kTotpSecretBytes = 20;  // 160 bits: RFC 4226's recommended key length
inline constexpr int kRecoveryCodeCount = 10;

// RFC 4226: the code of `counter` under `key` (HMAC-SHA-1, dynamic truncation), `digits` long with
// leading zeros.
std::string Hotp(std::string_view key, uint64_t counter, int digits = kTotpDigits);
// RFC 6238: the step a Unix time falls in, and the code of that step.
uint64_t TotpStep(int64_t unix_seconds);
std::string Totp(std::string_view key, int64_t unix_seconds, int digits = kTotpDigits);
// The step, within one step either side of now (clocks drift; people type slowly), whose code is
// `code`, and only if it is later than `last_step`: a step once used is never accepted again.
// nullopt when none matches. The comparison takes the same time whatever the code.
std::optional<uint64_t> MatchTotp(std::string_view key, std::string_view code, int64_t now, uint64_t last_step);

// RFC 4648 base32 without padding (what authenticator apps take), upper case.
std::string Base32Encode(std::string_view bytes);
// Either case; no padding, no blanks. nullopt for any other character or a length no encoding has.
std::optional<std::string> Base32Decode(std::string_view text);

// otpauth://totp/<issuer>:<account>?secret=...&issuer=...&algorithm=SHA1&digits=6&period=30
// (the Key URI format authenticator apps read), issuer and account percent-encoded.
std::string OtpauthUri(std::string_view issuer, std::string_view account, std::string_view secret_base32);

// Ten new recovery codes, each 80 random bits as four groups of four base32 letters and digits in
// lower case ("abcd-efgh-ijkl-mnop"): too many to guess under the login limits, or to search when
// only their SHA-256 is known.
std::vector<std::string> NewRecoveryCodes();
// What is hashed and compared: lower case, without the dashes and blanks people type or copy.
std::string NormalRecoveryCode(std::string_view code);

}  // namespace icat
