// A digest: read as the tenant, written as a mail (digest.hpp).
#include "digest.hpp"

#include <stdexcept>

#include "icat/json.hpp"

namespace icat::dispatcher {

namespace {

// ---------------------------------------------------------------- the queries
// Each reads from the latest version of each image the tenant holds a licence for ($1), of the
// channel's images ($2; empty: all). Row-level security says the same; the licence join keeps a
// statement run as the owner from reading more.
constexpr std::string_view kLatest = R"(
  WITH latest AS (
    SELECT i.id AS image_id, i.name, v.id AS version_id, v.tag AS version, v.latest_findings_set_id AS set_id
    FROM licenses l JOIN images i ON i.id = l.image_id JOIN image_versions v ON v.id = i.latest_version_id
    WHERE l.tenant_id = $1 AND (cardinality($2::uuid[]) = 0 OR i.id = ANY ($2::uuid[])))
)";

// Vulnerabilities first seen on the image in [$3, $4) (vulnerability_first_seen: on no version of it
// before $3) that its latest version still has, at least $5 severe. Per id, as the compare counts
// them: the highest severity of its findings, a fix when any of its packages has one, scanner-marked
// not-affected findings aside.
constexpr std::string_view kNewFindings = R"(
  SELECT l.image_id, l.name, l.version, x.vuln_id,
         (array_agg(x.severity ORDER BY severity_rank(x.severity) DESC))[1] AS severity,
         string_agg(DISTINCT x.package_name, ', ') AS packages, bool_or(x.fix_state = 'fixed') AS fixable
  FROM latest l
  JOIN vulnerabilities x ON x.set_id = l.set_id AND x.fix_state <> 'not-affected'
  JOIN vulnerability_first_seen f ON f.version_id = l.version_id AND f.vuln_id = x.vuln_id
  WHERE f.first_seen_at >= $3 AND f.first_seen_at < $4
    AND NOT EXISTS (SELECT FROM vulnerability_first_seen e
                    WHERE e.image_id = l.image_id AND e.vuln_id = x.vuln_id AND e.first_seen_at < $3)
  GROUP BY l.image_id, l.name, l.version, x.vuln_id
  HAVING max(severity_rank(x.severity)) >= severity_rank($5)
  ORDER BY max(severity_rank(x.severity)) DESC, l.name, l.image_id, x.vuln_id)";

// CVEs a KEV load first held in [$3, $4), the first load aside (its whole catalogue is the baseline,
// docs/feeds.md), that a latest version carries: matched to findings as vulnerability.exploited
// matches them (finding_cve, sql/V0031). Not filtered by severity: known exploitation outranks it.
constexpr std::string_view kExploited = R"(
  SELECT l.image_id, l.name, l.version, s.cve_id, k.vulnerability_name
  FROM kev_seen s JOIN kev_entries k ON k.cve_id = s.cve_id
  JOIN vulnerabilities x ON x.current AND (x.vuln_id = s.cve_id OR x.aliases @> ARRAY[s.cve_id])
    AND finding_cve(x.vuln_id, x.aliases) = s.cve_id
  JOIN latest l ON l.set_id = x.set_id
  WHERE s.first_seen_at >= $3 AND s.first_seen_at < $4 AND s.first_seen_at > (SELECT min(first_seen_at) FROM kev_seen)
  GROUP BY l.image_id, l.name, l.version, s.cve_id, k.vulnerability_name
  ORDER BY s.cve_id, l.name, l.image_id)";

// Versions published in [$3, $4) and what each fixes (version_fixes, sql/V0036) against the version
// it replaced as latest: the one before it in the order that chooses images.latest_version_id
// (published_at, then created_at, then the lower id first).
constexpr std::string_view kFixes = R"(
  , published AS (
    SELECT v.id, v.image_id, v.tag, v.published_at, lag(v.id) OVER w AS replaced_id, lag(v.tag) OVER w AS replaced
    FROM image_versions v JOIN latest l ON l.image_id = v.image_id
    WHERE v.image_id IN (SELECT image_id FROM image_versions WHERE published_at >= $3 AND published_at < $4)
    WINDOW w AS (PARTITION BY v.image_id ORDER BY v.published_at, v.created_at, v.id DESC))
  SELECT p.image_id, l.name, p.tag AS version, p.replaced, count(*) AS fixed,
         (array_agg(f.severity ORDER BY severity_rank(f.severity) DESC))[1] AS most_severe
  FROM published p JOIN latest l ON l.image_id = p.image_id
  CROSS JOIN LATERAL version_fixes(p.replaced_id, p.id) f
  WHERE p.published_at >= $3 AND p.published_at < $4
  GROUP BY p.image_id, l.name, p.tag, p.replaced, p.published_at
  ORDER BY l.name, p.published_at, p.tag)";

constexpr std::string_view kTenantName =
    "SELECT name, rfc3339($2) AS since, rfc3339($3) AS until FROM tenants WHERE id = $1";

DigestImage ImageOf(const Rows& rows, int row) {
  return {std::string(rows.Text(row, rows.Column("image_id"))), std::string(rows.Text(row, rows.Column("name"))),
          std::string(rows.Text(row, rows.Column("version")))};
}

std::string Statement(std::string_view body) { return std::string(kLatest) + std::string(body); }

// ---------------------------------------------------------------- the mail

std::string Capitalised(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

std::string Reference(const DigestImage& image) { return image.name + ":" + image.version; }

std::string LinkOf(const Digest& d, const DigestImage& image) {
  return d.console.empty() ? "" : d.console + "/images/" + image.id;
}

// One line of a section: its text and the image it links to.
struct Line {
  std::string text;
  const DigestImage* image;
};

struct Section {
  std::string heading;
  std::vector<Line> lines;
};

std::string SeverityFloor(const Digest& d) {
  if (d.min_severity == "critical") return "critical";
  if (d.min_severity == "high") return "critical and high";
  return "at least " + d.min_severity;
}

std::vector<Section> Sections(const Digest& d) {
  std::vector<Section> sections;
  if (!d.findings.empty()) {
    Section s{"New vulnerabilities (" + SeverityFloor(d) + ")", {}};
    for (const DigestFinding& f : d.findings) {
      s.lines.push_back({f.id + " \u00b7 " + f.severity + " \u00b7 " + f.packages + " \u00b7 " + f.fix + " \u00b7 in " +
                             Reference(f.image),
                         &f.image});
    }
    sections.push_back(std::move(s));
  }
  if (!d.exploited.empty()) {
    Section s{"Now known exploited (CISA KEV)", {}};
    for (const DigestExploited& e : d.exploited) {
      s.lines.push_back({e.cve_id + " (" + e.name + ") \u00b7 in " + Reference(e.image), &e.image});
    }
    sections.push_back(std::move(s));
  }
  if (!d.fixes.empty()) {
    Section s{"New versions with fixes", {}};
    for (const DigestFix& f : d.fixes) {
      s.lines.push_back({Reference(f.image) + " fixes " + Plural(f.count, "vulnerability", "vulnerabilities") + " of " +
                             f.replaced + " (most severe: " + f.most_severe + ")",
                         &f.image});
    }
    sections.push_back(std::move(s));
  }
  return sections;
}

std::string PeriodText(const Digest& d) { return "From " + d.since + " to " + d.until + " (UTC)"; }

std::string DigestHtml(const Digest& d) {
  std::string html = "<p>" + HtmlEscape(PeriodText(d)) + "</p>\n";
  for (const Section& s : Sections(d)) {
    html += "<h2 style=\"font-size: 1.05em\">" + HtmlEscape(s.heading) + "</h2>\n<ul>\n";
    for (size_t i = 0; i < s.lines.size() && i < kMaxDigestLines; i++) {
      std::string link = LinkOf(d, *s.lines[i].image);
      std::string text = HtmlEscape(s.lines[i].text);
      html += "<li>" + (link.empty() ? text : "<a href=\"" + HtmlEscape(link) + "\">" + text + "</a>") + "</li>\n";
    }
    if (s.lines.size() > kMaxDigestLines)
      html += "<li>and " + std::to_string(s.lines.size() - kMaxDigestLines) + " more</li>\n";
    html += "</ul>\n";
  }
  if (!d.console.empty()) html += "<p><a href=\"" + HtmlEscape(d.console) + "\">Open the console</a></p>\n";
  return html;
}

}  // namespace

std::optional<DigestPeriod> DuePeriod(std::string_view cadence, int hour, std::chrono::system_clock::time_point now,
                                      std::optional<std::chrono::system_clock::time_point> last_until, bool by_hand) {
  using std::chrono::days, std::chrono::hours, std::chrono::floor;
  const days length = cadence == "weekly" ? days(7) : days(1);
  std::chrono::system_clock::time_point until = now;
  if (!by_hand) {
    // The days since 1970-01-01 (a Thursday) of the last digest hour at or before now.
    days day = floor<days>(now - hours(hour)).time_since_epoch();
    if (cadence == "weekly") day -= days((day.count() + 3) % 7);  // back to its week's Monday
    until = std::chrono::system_clock::time_point(day + hours(hour));
  }
  std::chrono::system_clock::time_point since = last_until.value_or(until - length);
  if (since >= until) return std::nullopt;
  return DigestPeriod{since, until};
}

Digest ReadDigest(Db& db, const DigestScope& scope) {
  const std::string images = TextArrayLiteral(scope.image_ids);
  Digest d;
  Rows tenant = db.RunSql(kTenantName, {scope.tenant_id, scope.since, scope.until});
  if (tenant.empty()) throw std::invalid_argument("no tenant " + scope.tenant_id);
  d.tenant = tenant.Text(0, tenant.Column("name"));
  d.since = tenant.Text(0, tenant.Column("since"));
  d.until = tenant.Text(0, tenant.Column("until"));
  d.cadence = scope.cadence;
  d.min_severity = scope.min_severity;
  d.console = scope.console;

  Rows found =
      db.RunSql(Statement(kNewFindings), {scope.tenant_id, images, scope.since, scope.until, scope.min_severity});
  for (int i = 0; i < found.size(); i++) {
    d.findings.push_back({ImageOf(found, i), std::string(found.Text(i, found.Column("vuln_id"))),
                          std::string(found.Text(i, found.Column("severity"))),
                          std::string(found.Text(i, found.Column("packages"))),
                          found.Bool(i, found.Column("fixable")) ? "fix available" : "no fix yet"});
  }
  Rows exploited = db.RunSql(Statement(kExploited), {scope.tenant_id, images, scope.since, scope.until});
  for (int i = 0; i < exploited.size(); i++) {
    d.exploited.push_back({ImageOf(exploited, i), std::string(exploited.Text(i, exploited.Column("cve_id"))),
                           std::string(exploited.Text(i, exploited.Column("vulnerability_name")))});
  }
  Rows fixes = db.RunSql(Statement(kFixes), {scope.tenant_id, images, scope.since, scope.until});
  for (int i = 0; i < fixes.size(); i++) {
    d.fixes.push_back({ImageOf(fixes, i), std::string(fixes.Text(i, fixes.Column("replaced"))),
                       fixes.Int(i, fixes.Column("fixed")), std::string(fixes.Text(i, fixes.Column("most_severe")))});
  }
  return d;
}

std::string DigestSubject(const Digest& d) {
  std::vector<std::string> counts;
  for (std::string_view severity : {"critical", "high", "medium", "low", "unknown"}) {
    long long n = 0;
    for (const DigestFinding& f : d.findings) n += f.severity == severity;
    if (n) counts.push_back(std::to_string(n) + " new " + std::string(severity));
  }
  if (!d.exploited.empty()) {
    std::vector<std::string> cves;
    for (const DigestExploited& e : d.exploited) {
      if (cves.empty() || cves.back() != e.cve_id) cves.push_back(e.cve_id);  // ordered by CVE
    }
    counts.push_back(std::to_string(cves.size()) + " known exploited");
  }
  if (!d.fixes.empty()) counts.push_back(Plural(d.fixes.size(), "new version", "new versions") + " with fixes");
  std::string subject = Capitalised(d.cadence) + " digest for " + d.tenant;
  for (size_t i = 0; i < counts.size(); i++) subject += (i ? ", " : ": ") + counts[i];
  return subject;
}

std::string DigestText(const Digest& d) {
  std::string text = DigestSubject(d) + "\n" + PeriodText(d) + "\n";
  for (const Section& s : Sections(d)) {
    text += "\n" + s.heading + "\n";
    for (size_t i = 0; i < s.lines.size() && i < kMaxDigestLines; i++) {
      text += "- " + s.lines[i].text + "\n";
      std::string link = LinkOf(d, *s.lines[i].image);
      if (!link.empty()) text += "  " + link + "\n";
    }
    if (s.lines.size() > kMaxDigestLines) text += "and " + std::to_string(s.lines.size() - kMaxDigestLines) + " more\n";
  }
  if (!d.console.empty()) text += "\nOpen the console: " + d.console + "\n";
  return text;
}

std::string DigestPayload(const Digest& d) {
  if (d.empty()) throw std::logic_error("an empty digest is not sent");
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteString(w, "since", d.since);
  WriteString(w, "until", d.until);
  WriteString(w, "subject", DigestSubject(d));
  WriteString(w, "text", DigestText(d));
  WriteString(w, "html", DigestHtml(d));
  w.EndObject();
  return buffer.GetString();
}

std::string DigestMailOf(std::string_view payload_json, const MailEnvelope& envelope) {
  JsonRead read = ReadJson(payload_json, kMaxBodyDepth);
  const rapidjson::Value& p = read.document;
  if (!p.IsObject()) throw std::invalid_argument("a digest's payload is not a JSON object");
  auto text = [&](const char* name) {
    auto it = p.FindMember(name);
    if (it == p.MemberEnd() || !it->value.IsString()) {
      throw std::invalid_argument(std::string("a digest's payload has no string ") + name);
    }
    return std::string(it->value.GetString(), it->value.GetStringLength());
  };
  const std::string subject = text("subject");
  return MailMessage(subject, MailText(text("text"), envelope), MailHtml(subject, text("html"), envelope), envelope);
}

std::string DigestMail(const Digest& d, const MailEnvelope& envelope) {
  return DigestMailOf(DigestPayload(d), envelope);
}

}  // namespace icat::dispatcher
