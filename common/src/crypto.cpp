// Crypto primitives on OpenSSL, and the encodings the service's tokens and keys use.
#include "icat/crypto.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cctype>
#include <memory>
#include <stdexcept>
#include <vector>

namespace icat {

std::string RandomBytes(size_t count) {
  std::string bytes(count, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(count)) != 1) {
    throw std::runtime_error("the random number generator failed");
  }
  return bytes;
}

std::string RandomUuid() {
  std::string b = RandomBytes(16);
  b[6] = static_cast<char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<char>((b[8] & 0x3f) | 0x80);
  std::string hex = HexEncode(b);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
         hex.substr(20);
}

std::string Sha256(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return std::string(reinterpret_cast<char*>(digest), sizeof digest);
}

std::string Sha256Hex(std::string_view data) { return HexEncode(Sha256(data)); }

namespace {
std::string Hmac(const EVP_MD* digest, std::string_view key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(digest, key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), mac, &length);
  return std::string(reinterpret_cast<char*>(mac), length);
}
}  // namespace

std::string HmacSha256(std::string_view key, std::string_view data) { return Hmac(EVP_sha256(), key, data); }
std::string HmacSha1(std::string_view key, std::string_view data) { return Hmac(EVP_sha1(), key, data); }

bool ConstantTimeEqual(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string HexEncode(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex += kDigits[c >> 4];
    hex += kDigits[c & 0x0f];
  }
  return hex;
}

std::string Base64Encode(std::string_view bytes) {
  std::string text(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int length = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()),
                               reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  text.resize(length);
  return text;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string bytes(text.size() / 4 * 3 + 1, '\0');
  int length = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data()),
                               reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (length < 0) return std::nullopt;
  // EVP_DecodeBlock counts padding as zero bytes; drop them.
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding++;
  if (text.size() > 1 && text[text.size() - 2] == '=') padding++;
  bytes.resize(static_cast<size_t>(length) - padding);
  return bytes;
}

std::string Base64UrlEncode(std::string_view bytes) {
  std::string text = Base64Encode(bytes);
  while (!text.empty() && text.back() == '=') text.pop_back();
  for (char& c : text) {
    if (c == '+')
      c = '-';
    else if (c == '/')
      c = '_';
  }
  return text;
}

std::optional<std::string> Base64UrlDecode(std::string_view text) {
  // Only the URL-safe alphabet: the decoder below would skip white space, so "    " would decode
  // to nothing and a cursor or token of blanks would read as an empty one.
  std::string standard(text);
  for (char& c : standard) {
    if (c == '-')
      c = '+';
    else if (c == '_')
      c = '/';
    else if (!std::isalnum(static_cast<unsigned char>(c)))
      return std::nullopt;
  }
  if (standard.size() % 4 == 1) return std::nullopt;
  while (standard.size() % 4 != 0) standard += '=';
  return Base64Decode(standard);
}

std::optional<std::string> Base64UrlDecodeCanonical(std::string_view text) {
  std::optional<std::string> bytes = Base64UrlDecode(text);
  if (!bytes || Base64UrlEncode(*bytes) != text) return std::nullopt;
  return bytes;
}

std::string Base62Encode(std::string_view bytes, size_t width) {
  static const char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::vector<unsigned char> number(bytes.begin(), bytes.end());  // big-endian, divided in place
  std::string text;
  auto is_zero = [&] {
    for (unsigned char c : number)
      if (c) return false;
    return true;
  };
  while (!is_zero()) {
    unsigned remainder = 0;
    for (unsigned char& digit : number) {
      unsigned value = remainder * 256 + digit;
      digit = static_cast<unsigned char>(value / 62);
      remainder = value % 62;
    }
    text += kDigits[remainder];
  }
  while (text.size() < width) text += '0';
  return std::string(text.rbegin(), text.rend());
}

uint32_t Crc32(std::string_view data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char c : data) {
    crc ^= c;
    for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

namespace {
constexpr size_t kSealNonceBytes = 12, kSealTagBytes = 16;
using CipherCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

// One AES-256-GCM pass: encrypts (or decrypts) `in` with the nonce and the associated data; the
// tag is written (encrypting) or checked (decrypting). False when OpenSSL refuses or the tag is wrong.
bool AesGcm(bool encrypt, std::string_view key, std::string_view nonce, std::string_view aad, std::string_view in,
            std::string& out, std::string& tag) {
  std::string aes_key = Sha256(key);
  CipherCtxPtr ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  auto bytes = [](std::string_view v) { return reinterpret_cast<const unsigned char*>(v.data()); };
  int length = 0;
  out.assign(in.size(), '\0');
  auto* out_bytes = reinterpret_cast<unsigned char*>(out.data());
  if (!ctx || EVP_CipherInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, bytes(aes_key), bytes(nonce), encrypt) != 1 ||
      EVP_CipherUpdate(ctx.get(), nullptr, &length, bytes(aad), static_cast<int>(aad.size())) != 1 ||
      EVP_CipherUpdate(ctx.get(), out_bytes, &length, bytes(in), static_cast<int>(in.size())) != 1) {
    return false;
  }
  if (!encrypt && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kSealTagBytes, tag.data()) != 1) return false;
  if (EVP_CipherFinal_ex(ctx.get(), out_bytes + length, &length) != 1) return false;
  tag.resize(kSealTagBytes);
  return !encrypt || EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kSealTagBytes, tag.data()) == 1;
}
}  // namespace

std::string Seal(std::string_view key, std::string_view plaintext, std::string_view context) {
  std::string nonce = RandomBytes(kSealNonceBytes), ciphertext, tag(kSealTagBytes, '\0');
  if (!AesGcm(true, key, nonce, context, plaintext, ciphertext, tag))
    throw std::runtime_error("AES-GCM sealing failed");
  return nonce + ciphertext + tag;
}

std::optional<std::string> Unseal(std::string_view key, std::string_view sealed, std::string_view context) {
  if (sealed.size() < kSealNonceBytes + kSealTagBytes) return std::nullopt;
  std::string_view nonce = sealed.substr(0, kSealNonceBytes);
  std::string_view ciphertext = sealed.substr(kSealNonceBytes, sealed.size() - kSealNonceBytes - kSealTagBytes);
  std::string tag(sealed.substr(sealed.size() - kSealTagBytes)), plaintext;
  if (!AesGcm(false, key, nonce, context, ciphertext, plaintext, tag)) return std::nullopt;
  return plaintext;
}

namespace {
constexpr uint64_t kScryptLogN = 17, kScryptR = 8, kScryptP = 1;
constexpr size_t kSaltBytes = 16, kHashBytes = 32;
constexpr uint64_t kScryptMaxMem = 256ull * 1024 * 1024;  // N=2^17, r=8 needs 128 MiB

std::string Scrypt(std::string_view password, std::string_view salt, uint64_t log_n, uint64_t r, uint64_t p) {
  std::string hash(kHashBytes, '\0');
  if (EVP_PBE_scrypt(password.data(), password.size(), reinterpret_cast<const unsigned char*>(salt.data()), salt.size(),
                     uint64_t{1} << log_n, r, p, kScryptMaxMem, reinterpret_cast<unsigned char*>(hash.data()),
                     hash.size()) != 1) {
    throw std::runtime_error("scrypt failed");
  }
  return hash;
}

std::string PhcBase64(std::string_view bytes) {  // PHC strings use unpadded standard base64
  std::string text = Base64Encode(bytes);
  while (!text.empty() && text.back() == '=') text.pop_back();
  return text;
}
}  // namespace

std::string HashPassword(std::string_view password) {
  std::string salt = RandomBytes(kSaltBytes);
  return "$scrypt$ln=" + std::to_string(kScryptLogN) + ",r=" + std::to_string(kScryptR) +
         ",p=" + std::to_string(kScryptP) + "$" + PhcBase64(salt) + "$" +
         PhcBase64(Scrypt(password, salt, kScryptLogN, kScryptR, kScryptP));
}

bool VerifyPassword(std::string_view password, std::string_view phc) {
  unsigned log_n = 0, r = 0, p = 0;
  char salt64[64] = {0}, hash64[128] = {0};
  std::string text(phc);
  if (std::sscanf(text.c_str(), "$scrypt$ln=%u,r=%u,p=%u$%63[^$]$%127s", &log_n, &r, &p, salt64, hash64) != 5 ||
      log_n < 10 || log_n > 20 || r < 1 || r > 16 || p < 1 || p > 4) {
    return false;
  }
  auto pad = [](std::string s) {
    while (s.size() % 4) s += '=';
    return s;
  };
  std::optional<std::string> salt = Base64Decode(pad(salt64));
  std::optional<std::string> expected = Base64Decode(pad(hash64));
  if (!salt || !expected) return false;
  return ConstantTimeEqual(Scrypt(password, *salt, log_n, r, p), *expected);
}

namespace {
using PKeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using BioPtr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

// Reads a PEM key (private or public).
PKeyPtr ReadKey(std::string_view pem, bool is_private) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  if (!bio) throw std::runtime_error("out of memory reading a key");
  EVP_PKEY* raw = is_private ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr)
                             : PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr);
  PKeyPtr key(raw, EVP_PKEY_free);
  if (!key) {
    throw std::runtime_error(is_private ? "not a PEM private key" : "not a PEM public key");
  }
  return key;
}

// "Ed25519", "ECDSA-P256", or empty for any other kind of key.
std::string AlgorithmOf(EVP_PKEY* key) {
  if (EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519) return "Ed25519";
  char curve[64] = {0};
  if (EVP_PKEY_get_base_id(key) == EVP_PKEY_EC &&
      EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, curve, sizeof curve, nullptr) == 1 &&
      std::string_view(curve) == "prime256v1") {
    return "ECDSA-P256";
  }
  return "";
}

PKeyPtr ReadEd25519(std::string_view pem, bool is_private) {
  PKeyPtr key = ReadKey(pem, is_private);
  if (AlgorithmOf(key.get()) != "Ed25519") throw std::runtime_error("the key is not an Ed25519 key");
  return key;
}

PKeyPtr ReadP256(std::string_view pem, bool is_private) {
  PKeyPtr key = ReadKey(pem, is_private);
  if (AlgorithmOf(key.get()) != "ECDSA-P256") throw std::runtime_error("the key is not an ECDSA P-256 key");
  return key;
}

std::string PublicPem(EVP_PKEY* key) {
  BioPtr bio(BIO_new(BIO_s_mem()), BIO_free);
  if (!bio || PEM_write_bio_PUBKEY(bio.get(), key) != 1) throw std::runtime_error("cannot write the public key");
  char* text = nullptr;
  long length = BIO_get_mem_data(bio.get(), &text);
  return std::string(text, static_cast<size_t>(length));
}

std::string PublicKeyDer(EVP_PKEY* key) {
  int length = i2d_PUBKEY(key, nullptr);
  if (length <= 0) throw std::runtime_error("cannot encode the public key");
  std::string der(static_cast<size_t>(length), '\0');
  unsigned char* out = reinterpret_cast<unsigned char*>(der.data());
  i2d_PUBKEY(key, &out);
  return der;
}
}  // namespace

std::string Ed25519Sign(std::string_view private_key_pem, std::string_view data) {
  PKeyPtr key = ReadEd25519(private_key_pem, true);
  MdCtxPtr ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  size_t length = 0;
  // Ed25519 signs the message itself (no separate digest), so one-shot DigestSign with a null md.
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(data.data()), data.size()) !=
          1) {
    throw std::runtime_error("Ed25519 signing failed");
  }
  std::string signature(length, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(data.data()), data.size()) != 1) {
    throw std::runtime_error("Ed25519 signing failed");
  }
  signature.resize(length);
  return signature;
}

bool Ed25519Verify(std::string_view public_key_pem, std::string_view data, std::string_view signature) {
  PKeyPtr key = ReadEd25519(public_key_pem, false);
  MdCtxPtr ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) return false;
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                          reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
}

std::string Ed25519PublicKeyPem(std::string_view private_key_pem) {
  return PublicPem(ReadEd25519(private_key_pem, true).get());
}

std::string Ed25519JwkX(std::string_view public_key_pem) {
  PKeyPtr key = ReadEd25519(public_key_pem, false);
  unsigned char raw[32];
  size_t length = sizeof raw;
  if (EVP_PKEY_get_raw_public_key(key.get(), raw, &length) != 1 || length != sizeof raw) {
    throw std::runtime_error("cannot read the Ed25519 public key");
  }
  return Base64UrlEncode(std::string_view(reinterpret_cast<const char*>(raw), length));
}

std::string SigningKeyId(std::string_view public_key_pem) {
  PKeyPtr key = ReadKey(public_key_pem, false);
  if (AlgorithmOf(key.get()).empty()) throw std::runtime_error("the key is neither Ed25519 nor ECDSA P-256");
  return Sha256Hex(PublicKeyDer(key.get())).substr(0, 16);
}

std::string KeyAlgorithm(std::string_view public_key_pem) {
  std::string algorithm = AlgorithmOf(ReadKey(public_key_pem, false).get());
  if (algorithm.empty()) throw std::runtime_error("the key is neither Ed25519 nor ECDSA P-256");
  return algorithm;
}

std::string EcdsaP256NewPrivateKeyPem() {
  PKeyPtr key(EVP_EC_gen("P-256"), EVP_PKEY_free);
  if (!key) throw std::runtime_error("cannot make an ECDSA P-256 key");
  BioPtr bio(BIO_new(BIO_s_mem()), BIO_free);
  if (!bio || PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    throw std::runtime_error("cannot write the private key");
  }
  char* text = nullptr;
  long length = BIO_get_mem_data(bio.get(), &text);
  std::string pem(text, static_cast<size_t>(length));
  OPENSSL_cleanse(text, static_cast<size_t>(length));
  return pem;
}

std::string EcdsaP256Sign(std::string_view private_key_pem, std::string_view data) {
  PKeyPtr key = ReadP256(private_key_pem, true);
  MdCtxPtr ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  size_t length = 0;
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(data.data()), data.size()) !=
          1) {
    throw std::runtime_error("ECDSA signing failed");
  }
  std::string signature(length, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(data.data()), data.size()) != 1) {
    throw std::runtime_error("ECDSA signing failed");
  }
  signature.resize(length);
  return signature;
}

bool EcdsaP256Verify(std::string_view public_key_pem, std::string_view data, std::string_view signature_der) {
  PKeyPtr key = ReadP256(public_key_pem, false);
  MdCtxPtr ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1) return false;
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature_der.data()), signature_der.size(),
                          reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
}

std::string EcdsaP256PublicKeyPem(std::string_view private_key_pem) {
  return PublicPem(ReadP256(private_key_pem, true).get());
}

JwkPoint EcdsaP256JwkPoint(std::string_view public_key_pem) {
  PKeyPtr key = ReadP256(public_key_pem, false);
  // The uncompressed point: 0x04, then x and y of 32 bytes each.
  unsigned char point[65];
  size_t length = 0;
  if (EVP_PKEY_get_octet_string_param(key.get(), OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point, sizeof point, &length) !=
          1 ||
      length != sizeof point || point[0] != 0x04) {
    throw std::runtime_error("cannot read the public key's point");
  }
  std::string_view bytes(reinterpret_cast<const char*>(point), sizeof point);
  return {Base64UrlEncode(bytes.substr(1, 32)), Base64UrlEncode(bytes.substr(33, 32))};
}

}  // namespace icat
