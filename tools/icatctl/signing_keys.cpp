// icatctl signing-key create, rotate and list: the ECDSA P-256 key of ICAT_ATTESTATION_KEY_FILE that
// signs attestations (docs/attestations.md), and every key signing_keys holds. A rotated key is
// retired, never removed: its public half stays in signing_keys, so what it signed stays verifiable,
// and nothing is signed with it again (RememberSigningKey refuses it).
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "icat/crypto.hpp"
#include "ingest/files.hpp"
#include "ingest/session.hpp"
#include "ingest/signing.hpp"

namespace icat::ctl {
namespace {

constexpr std::string_view kSetting = "ICAT_ATTESTATION_KEY_FILE";

// The attestation keys still current, now retired: all but the new one ($1).
constexpr std::string_view kRetireOthers =
    "UPDATE signing_keys SET retired_at = now() WHERE algorithm = 'ECDSA-P256' AND retired_at IS NULL AND id <> $1 "
    "RETURNING id";
constexpr std::string_view kAllKeys =
    "SELECT id, algorithm, rfc3339(created_at) AS created, rfc3339(retired_at) AS retired FROM signing_keys "
    "ORDER BY created_at, id";

[[noreturn]] void FailErrno(const std::string& what, const std::string& path) { ctl::FailErrno(kSetting, what, path); }

// Who may read the new key file: its owner and group, and mode (0600, or 0640 with a group).
struct FileAccess {
  std::optional<uid_t> uid;
  std::optional<gid_t> gid;
  mode_t mode = 0600;
};

// The private key in a new file beside path (the same filesystem, so a rename is atomic), durable;
// returns its name. Nothing is left behind when this throws.
std::string WriteTempKey(const std::string& path, const std::string& pem, const FileAccess& access) {
  std::string temp = path + ".tmp-XXXXXX";
  int fd = mkstemp(temp.data());  // mode 0600
  if (fd < 0) FailErrno("create a file beside", path);
  try {
    WriteAll(kSetting, fd, pem, temp);
    if ((access.uid || access.gid) && fchown(fd, access.uid.value_or(static_cast<uid_t>(-1)), access.gid.value_or(static_cast<gid_t>(-1))) != 0) {
      FailErrno("give the old key file's owner and group to", temp);
    }
    if (fchmod(fd, access.mode) != 0) FailErrno("chmod", temp);
    if (fsync(fd) != 0) FailErrno("fsync", temp);
    if (close(fd) != 0) {
      fd = -1;
      FailErrno("close", temp);
    }
  } catch (...) {
    if (fd >= 0) close(fd);
    unlink(temp.c_str());
    throw;
  }
  return temp;
}

// A new P-256 key, as ReadSigningKey would read it from the file.
SigningKey NewAttestationKey() {
  SigningKey key;
  key.private_pem = EcdsaP256NewPrivateKeyPem();
  key.public_pem = EcdsaP256PublicKeyPem(key.private_pem);
  key.id = SigningKeyId(key.public_pem);
  key.algorithm = "ECDSA-P256";
  key.setting = kSetting;
  return key;
}

const std::string& KeyFile(const Session& session) {
  const std::string& path = session.config.attestation_key_file;
  if (path.empty()) throw Failure(std::string(kSetting) + " is not set: it names the attestation key's file");
  return path;
}

// The id of the key a configured file holds; nullopt (and a note why) when there is none to read.
std::optional<std::string> KeyIdOfFile(const std::string& path, const std::string& setting, const std::string& algorithm) {
  if (path.empty()) return std::nullopt;
  try {
    return ReadSigningKey(path, setting, algorithm).id;
  } catch (const Failure& e) {
    std::cerr << "icatctl: note: " << e.what() << '\n';
    return std::nullopt;
  }
}

}  // namespace

void SigningKeyCreate(const Args&) {
  Session session;
  const std::string& path = KeyFile(session);
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    throw Failure(std::string(kSetting) + ": " + path +
                  " exists already; create never replaces a key (icatctl signing-key rotate does)");
  }
  SigningKey key = NewAttestationKey();
  std::string temp = WriteTempKey(path, key.private_pem, {});
  try {
    Transaction transaction(session.db);
    RecordSigningKey(session.db, key);
    transaction.Commit();
    // No replace: a file made since the check above stays as it is.
    if (renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0) {
      FailErrno("create", path);
    }
  } catch (...) {
    unlink(temp.c_str());
    throw;
  }
  FsyncDirectory(kSetting, ParentDirectory(path));
  // The id alone on stdout, so `ID=$(icatctl signing-key create)` captures exactly it.
  std::cout << key.id << '\n';
  std::cerr << "created ECDSA P-256 key " << key.id << " in " << path << " (mode 0600)\n";
}

// The new key is written beside the old file first, then recorded and the old ones retired in one
// commit, then renamed over the old file: a failure before the commit changes nothing, and one after
// it leaves the new key in its temp file, named in the message.
void SigningKeyRotate(const Args&) {
  Session session;
  const std::string& path = KeyFile(session);
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) throw Failure(std::string(kSetting) + ": " + path + " does not exist (icatctl signing-key create makes it)");
    FailErrno("inspect", path);
  }
  SigningKey old_key = LoadAttestationKey(session.config);
  SigningKey new_key = NewAttestationKey();
  // The new file as the old one was: its owner and group, readable by the group if it was.
  FileAccess access{st.st_uid, st.st_gid, static_cast<mode_t>(st.st_mode & 0640)};
  std::string temp = WriteTempKey(path, new_key.private_pem, access);
  std::vector<std::string> retired;
  try {
    Transaction transaction(session.db);
    RecordSigningKey(session.db, old_key);  // one that never signed is listed too, retired
    RecordSigningKey(session.db, new_key);
    Rows rows = session.db.RunSql(kRetireOthers, {new_key.id});
    for (int i = 0; i < rows.size(); ++i) retired.emplace_back(rows.Text(i, rows.Column("id")));
    transaction.Commit();
  } catch (...) {
    unlink(temp.c_str());
    throw;
  }
  if (rename(temp.c_str(), path.c_str()) != 0) {
    throw Failure(std::string(kSetting) + ": cannot rename " + temp + " to " + path + ": " + std::strerror(errno) +
                  "; key " + new_key.id + " is current and in " + temp + ": move it there by hand");
  }
  FsyncDirectory(kSetting, ParentDirectory(path));
  for (const std::string& id : retired) std::cout << "retired key " << id << '\n';
  std::cout << "new key " << new_key.id << '\n';
  std::cerr << path << " holds key " << new_key.id << "; the old private key is gone, its public half stays in "
            << "signing_keys (what it signed stays verifiable)\n";
}

void SigningKeyList(const Args&) {
  Session session;
  std::optional<std::string> signing_file =
      KeyIdOfFile(session.config.signing_key_file, "ICAT_SIGNING_KEY_FILE", "Ed25519");
  std::optional<std::string> attestation_file =
      KeyIdOfFile(session.config.attestation_key_file, std::string(kSetting), "ECDSA-P256");
  Rows keys = session.db.RunSql(kAllKeys, {});
  std::vector<std::vector<std::string>> table = {{"ID", "ALGORITHM", "USE", "CREATED", "RETIRED", "FILE"}};
  bool signing_listed = false, attestation_listed = false;
  for (int i = 0; i < keys.size(); ++i) {
    std::string id(keys.Text(i, keys.Column("id"))), algorithm(keys.Text(i, keys.Column("algorithm")));
    std::string file = "-";
    if (id == signing_file) {
      file = "ICAT_SIGNING_KEY_FILE";
      signing_listed = true;
    } else if (id == attestation_file) {
      file = kSetting;
      attestation_listed = true;
    }
    table.push_back({id, algorithm, algorithm == "Ed25519" ? "signatures" : "attestations",
                     std::string(keys.Text(i, keys.Column("created"))),
                     keys.OptionalText(i, keys.Column("retired")).value_or("-"), file});
  }
  PrintTable(table);
  // A key is recorded when it first signs (or by create and rotate).
  if (signing_file && !signing_listed) {
    std::cout << "ICAT_SIGNING_KEY_FILE holds key " << *signing_file << ", not recorded yet (it has signed nothing)\n";
  }
  if (attestation_file && !attestation_listed) {
    std::cout << kSetting << " holds key " << *attestation_file << ", not recorded yet (it has signed nothing)\n";
  }
}

}  // namespace icat::ctl
