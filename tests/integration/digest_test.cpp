// A tenant's digest (issue 32, services/dispatcher/digest): read as the tenant from findings, a
// KEV entry and a new version, it names what is new in the tenant's images only; icatctl digests
// send queues it and the dispatcher mails it to the confirmed addresses, once per period.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "mail_support.hpp"
#include "services/dispatcher/digest.hpp"
#include "support.hpp"

namespace it = icat::test;
namespace dispatcher = icat::dispatcher;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::system_clock;

struct Finding {
  std::string id, severity, fix_state, package;
  Clock::time_point first_seen;
};

// A scan of the version, made its latest, with these findings first seen on it when each says.
void Scan(const it::Version& version, const std::vector<Finding>& findings) {
  std::string set_id = it::InsertLatestScan(version.id, {});
  for (const Finding& f : findings) {
    it::PgQuery("INSERT INTO vulnerabilities (set_id, vuln_id, package_name, package_version, severity, fix_state) "
                "VALUES ($1, $2, $3, '1.0', $4, $5)",
                {set_id, f.id, f.package, f.severity, f.fix_state});
    it::PgQuery("INSERT INTO vulnerability_first_seen (version_id, vuln_id, first_seen_at) VALUES ($1, $2, $3) "
                "ON CONFLICT DO NOTHING",
                {version.id, f.id, it::Rfc3339(f.first_seen)});
  }
}

// A CVE id no test used before.
std::string NewCve() { return "CVE-2099-" + std::to_string(100000 + std::stoul(it::RandomSuffix(6), nullptr, 16) % 900000); }

// The CVE in the KEV catalogue, first held by a load at `first_seen`, as `icatctl feeds load` records
// it (docs/feeds.md). Written directly: a real load of a catalogue published now would make the
// feeds suite's recorded (older) catalogue refused in the same stack.
void AddKev(const std::string& cve, Clock::time_point first_seen) {
  it::PgQuery("INSERT INTO kev_entries (cve_id, vendor_project, product, vulnerability_name, date_added, "
              "short_description, required_action, due_date) VALUES ($1, 'Test', 'test', 'Test ' || $1 || ' flaw', "
              "'2026-11-28', 'test', 'patch', '2026-12-19')",
              {cve});
  it::PgQuery("INSERT INTO kev_seen (cve_id, first_seen_at) VALUES ($1, $2)", {cve, it::Rfc3339(first_seen)});
}

dispatcher::Digest DigestOf(const it::Tenant& tenant, Clock::time_point since, Clock::time_point until,
                            const std::string& min_severity = "high", const std::vector<std::string>& image_ids = {}) {
  const char* dsn = std::getenv("ICAT_PG_DSN");  // as the handlers and the dispatcher: icat_app
  BOOST_TEST_REQUIRE(dsn != nullptr);
  icat::Db db(dsn, {});
  dispatcher::DigestScope scope{tenant.id(), "daily", it::Rfc3339(since), it::Rfc3339(until), min_severity, image_ids,
                                "https://" + tenant.subdomain() + ".example.com"};
  db.ReadAsTenant(tenant.id());
  dispatcher::Digest digest = dispatcher::ReadDigest(db, scope);
  db.Commit();
  return digest;
}

std::vector<std::string> FindingIds(const dispatcher::Digest& d) {
  std::vector<std::string> ids;
  for (const dispatcher::DigestFinding& f : d.findings) ids.push_back(f.image.name + " " + f.id + " " + f.severity);
  return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(digest)

BOOST_AUTO_TEST_CASE(a_digest_names_new_severe_findings_new_kev_cves_and_fixing_versions_of_the_tenants_images_only) {
  const Clock::time_point now = Clock::now();
  const Clock::time_point since = now - 24h, until = now + 1min;
  const std::string kev = NewCve(), new_critical = NewCve(), old_critical = NewCve(), fixed_high = NewCve(),
                    fixed_critical = NewCve(), low = NewCve(), theirs = NewCve();

  // Ours: 1.0 three days ago, 1.1 an hour ago. 1.1 still has old_critical (seen on 1.0 before the
  // period: not new), drops fixed_high and fixed_critical, and brings new_critical, low and kev.
  it::Tenant ours;
  it::Image image = ours.AddImage("digest", {{.tag = "1.0", .published = it::Rfc3339(now - 72h)},
                                             {.tag = "1.1", .published = it::Rfc3339(now - 1h)}});
  Scan(image.versions[0], {{old_critical, "critical", "not-fixed", "openssl", now - 72h},
                           {fixed_high, "high", "fixed", "zlib", now - 72h},
                           {fixed_critical, "critical", "fixed", "curl", now - 72h}});
  Scan(image.versions[1], {{old_critical, "critical", "not-fixed", "openssl", now - 1h},
                           {new_critical, "critical", "fixed", "libxml2", now - 1h},
                           {new_critical, "high", "not-fixed", "libxml2-utils", now - 1h},
                           {low, "low", "not-fixed", "bash", now - 1h},
                           {kev, "medium", "not-fixed", "xz-utils", now - 1h}});
  it::Image quiet = ours.AddImage("quiet", {{.tag = "2.0", .published = it::Rfc3339(now - 72h)}});

  // Theirs, licensed to another tenant only: the same KEV CVE and a new critical finding.
  it::Tenant other;
  it::Image their_image = other.AddImage("theirs", {{.tag = "9.9", .published = it::Rfc3339(now - 2h)}});
  Scan(their_image.versions[0], {{theirs, "critical", "fixed", "glibc", now - 2h}, {kev, "high", "fixed", "xz", now - 2h}});

  // A CVE of a KEV load long before (the baseline when it is this stack's first), then the one
  // that became known exploited half an hour ago.
  AddKev(NewCve(), now - 30 * 24h);
  AddKev(kev, now - 30min);

  dispatcher::Digest d = DigestOf(ours, since, until);
  BOOST_TEST(d.tenant == "Integration " + ours.subdomain());
  BOOST_TEST(FindingIds(d) == std::vector<std::string>{image.name + " " + new_critical + " critical"},
             boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(d.findings.size() == 1u);
  BOOST_TEST(d.findings[0].image.id == image.id);
  BOOST_TEST(d.findings[0].image.version == "1.1");
  BOOST_TEST(d.findings[0].packages == "libxml2, libxml2-utils");
  BOOST_TEST(d.findings[0].fix == "fix available");
  BOOST_TEST_REQUIRE(d.exploited.size() == 1u);
  BOOST_TEST(d.exploited[0].cve_id == kev);
  BOOST_TEST(d.exploited[0].name == "Test " + kev + " flaw");
  BOOST_TEST(d.exploited[0].image.id == image.id);
  BOOST_TEST_REQUIRE(d.fixes.size() == 1u);
  BOOST_TEST(d.fixes[0].image.version == "1.1");
  BOOST_TEST(d.fixes[0].replaced == "1.0");
  BOOST_TEST(d.fixes[0].count == 2);
  BOOST_TEST(d.fixes[0].most_severe == "critical");
  BOOST_TEST(dispatcher::DigestSubject(d) == "Daily digest for Integration " + ours.subdomain() +
                                                 ": 1 new critical, 1 known exploited, 1 new version with fixes");
  std::string text = dispatcher::DigestText(d);
  BOOST_TEST(text.find(their_image.name) == std::string::npos, text);
  BOOST_TEST(text.find(theirs) == std::string::npos, text);
  BOOST_TEST(text.find("https://" + ours.subdomain() + ".example.com/images/" + image.id) != std::string::npos, text);

  // The channel's floor and images filter the findings; the KEV CVE is there whatever its severity.
  dispatcher::Digest all = DigestOf(ours, since, until, "low");
  BOOST_TEST(FindingIds(all) == (std::vector<std::string>{image.name + " " + new_critical + " critical",
                                                          image.name + " " + kev + " medium",
                                                          image.name + " " + low + " low"}),
             boost::test_tools::per_element());
  BOOST_TEST(DigestOf(ours, since, until, "high", {quiet.id}).empty());

  // The other tenant's digest has its own image, and the KEV CVE in it.
  dispatcher::Digest theirs_digest = DigestOf(other, since, until);
  BOOST_TEST(FindingIds(theirs_digest) == (std::vector<std::string>{their_image.name + " " + theirs + " critical",
                                                                    their_image.name + " " + kev + " high"}),
             boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(theirs_digest.exploited.size() == 1u);
  BOOST_TEST(theirs_digest.exploited[0].image.id == their_image.id);
  BOOST_TEST(theirs_digest.fixes.empty());

  // The next period has nothing new: its digest is empty, and not sent.
  BOOST_TEST(DigestOf(ours, until, until + 24h).empty());
}

BOOST_AUTO_TEST_CASE(icatctl_digests_send_mails_the_digest_to_confirmed_addresses_once_per_period) {
  const Clock::time_point now = Clock::now();
  const std::string found = NewCve();
  it::Tenant tenant;
  it::Image image = tenant.AddImage("mailed", {{.tag = "3.0", .published = it::Rfc3339(now - 72h)}});
  Scan(image.versions[0], {{found, "critical", "fixed", "openssl", now - 1h}});
  // A daily digest channel with a confirmed address, a pending one and an unsubscribed one.
  const std::string confirmed = "digest-" + it::RandomSuffix(8) + "@example.com";
  const std::string pending = "pending-" + it::RandomSuffix(8) + "@example.com";
  const std::string gone = "gone-" + it::RandomSuffix(8) + "@example.com";
  std::string channel = *it::PgQuery(
      "INSERT INTO notification_channels (tenant_id, type, name, events, digest) "
      "VALUES ($1, 'email', 'digest', '{}', 'daily') RETURNING id", {tenant.id()}).at(0).at(0);
  it::PgQuery("INSERT INTO notification_addresses (channel_id, tenant_id, address, state) "
              "VALUES ($1, $2, $3, 'confirmed'), ($1, $2, $4, 'pending'), ($1, $2, $5, 'unsubscribed')",
              {channel, tenant.id(), confirmed, pending, gone});

  BOOST_TEST(it::IcatctlOk({"digests", "send", "--tenant", tenant.subdomain()}) == "1 digests queued, 0 empty (nothing to send)");
  std::vector<it::Mail> mails = it::WaitForMails(confirmed, 1);
  BOOST_TEST_REQUIRE(mails.size() == 1u);
  const it::Mail& mail = mails[0];
  BOOST_TEST(mail.subject == "[icat] Daily digest for Integration " + tenant.subdomain() + ": 1 new critical");
  BOOST_TEST(mail.content_type == "multipart/alternative");
  BOOST_TEST(mail.defects == 0);
  BOOST_TEST(mail.text.find("- " + found + " \u00b7 critical \u00b7 openssl \u00b7 fix available \u00b7 in " + image.name + ":3.0") !=
             std::string::npos, mail.text);
  BOOST_TEST(mail.text.find("/images/" + image.id) != std::string::npos, mail.text);
  BOOST_TEST(mail.html.find("/images/" + image.id + "\">" + found) != std::string::npos, mail.html);
  BOOST_TEST_REQUIRE(mail.list_unsubscribe.has_value());
  BOOST_TEST(mail.list_unsubscribe->find("/api/notification-addresses/unsubscribe/") != std::string::npos);
  BOOST_TEST(mail.list_unsubscribe_post.value_or("") == "List-Unsubscribe=One-Click");

  // Again: nothing new to send (the seconds since, if any, are recorded as an empty period).
  BOOST_TEST(it::IcatctlOk({"digests", "send", "--tenant", tenant.subdomain()}).rfind("0 digests queued, ", 0) == 0u);
  std::this_thread::sleep_for(2s);  // the dispatcher has sent everything due by now
  BOOST_TEST(it::MailsTo(confirmed).size() == 1u);
  BOOST_TEST(it::MailsTo(pending).empty());
  BOOST_TEST(it::MailsTo(gone).empty());
  BOOST_TEST(*it::PgQuery("SELECT count(*) FROM notification_digests WHERE channel_id = $1 AND event_id IS NOT NULL",
                          {channel}).at(0).at(0) == "1");
}

BOOST_AUTO_TEST_SUITE_END()
