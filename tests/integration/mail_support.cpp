// The stack's mail catcher, read (mail_support.hpp).
#include "mail_support.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <thread>

#include "support.hpp"

using namespace std::chrono_literals;

namespace icat::test {

namespace {

std::optional<std::string> OptionalMember(const rapidjson::Value& v, const char* name) {
  if (!v.HasMember(name) || !v[name].IsString()) return std::nullopt;
  return std::string(v[name].GetString(), v[name].GetStringLength());
}

}  // namespace

// Every mail to `to` in the catcher's directory, oldest first (the files are named by time).
std::vector<Mail> MailsTo(const std::string& to) {
  std::vector<std::string> files;
  std::filesystem::path dir = GetEnv().stack_dir + "/mail";
  if (!std::filesystem::exists(dir)) return {};
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 4 && name.front() != '.' && name.substr(name.size() - 4) == ".eml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Mail> mails;
  if (files.empty()) return mails;
  std::vector<std::string> argv = {GetEnv().repo + "/tests/integration/read-mail"};
  argv.insert(argv.end(), files.begin(), files.end());
  ProcessResult read = RunProcess(argv);
  BOOST_TEST_REQUIRE(read.exit_code == 0, read.err);
  std::istringstream lines(read.out);
  for (std::string line; std::getline(lines, line);) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    BOOST_TEST_REQUIRE(d.IsObject(), line);
    Mail m;
    m.to = StringMember(d, "to");
    if (m.to != to) continue;
    m.file = StringMember(d, "file");
    m.from = StringMember(d, "from");
    m.subject = StringMember(d, "subject");
    m.content_type = StringMember(d, "contentType");
    m.text = OptionalMember(d["parts"], "text/plain").value_or("");
    m.html = OptionalMember(d["parts"], "text/html").value_or("");
    m.list_unsubscribe = OptionalMember(d, "listUnsubscribe");
    m.list_unsubscribe_post = OptionalMember(d, "listUnsubscribePost");
    m.defects = d["defects"].GetInt();
    mails.push_back(std::move(m));
  }
  return mails;
}

// Waits until `to` has at least `count` mails (at most `wait`) and returns them all.
std::vector<Mail> WaitForMails(const std::string& to, size_t count, std::chrono::seconds wait) {
  auto deadline = std::chrono::steady_clock::now() + wait;
  std::vector<Mail> mails = MailsTo(to);
  while (mails.size() < count && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(200ms);
    mails = MailsTo(to);
  }
  return mails;
}

}  // namespace icat::test
