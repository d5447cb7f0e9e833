// The findings of a version's latest scan, filtered by severity and fix state, sorted by a column
// and paged; filters, sort and page live in the address (?severity=&fixState=&sort=&order=&page=).
//
// Decision: every finding of the version is fetched (limit=200, following nextCursor) and then
// filtered, sorted and paged here. Sorting is then across all findings, not within one page of the
// API's (which sorts critical first and cannot sort otherwise); a version's findings number in the
// hundreds, a few requests at most, and changing a filter or the sort costs no request.
import { getAllPages } from "../../api.js";
import { Link, useQuery } from "../../router.jsx";
import { Counts, Empty, Epss, Kev, Package, Pager, Pending, SelectField, Severity, When, useLoad, Table } from "../../ui.jsx";
import { kFixStates, kSeverities } from "../../vocabulary.js";

const kFindingsPerPage = 50;

// Ascending order of each sortable column; `descendingFirst`: the first click shows the worst first.
const kSeverityWeight = Object.fromEntries(kSeverities.map((level, index) => [level, kSeverities.length - index]));
const kColumns = {
  severity: { label: "Severity", descendingFirst: true, compare: (a, b) => kSeverityWeight[a.severity] - kSeverityWeight[b.severity] },
  id: { label: "Vulnerability", compare: (a, b) => a.id.localeCompare(b.id, "en", { numeric: true }) },
  package: {
    label: "Package",
    compare: (a, b) => a.package.name.localeCompare(b.package.name) || (a.package.version || "").localeCompare(b.package.version || "", "en", { numeric: true }),
  },
  // No score sorts as the lowest.
  cvss: { label: "CVSS", descendingFirst: true, compare: (a, b) => (a.cvssScore ?? -1) - (b.cvssScore ?? -1) },
  fixState: { label: "Fix state", compare: (a, b) => kFixStates.indexOf(a.fixState) - kFixStates.indexOf(b.fixState) },
};

// Scanner data names the advisory; only a web address becomes a link (never javascript: and such).
const isWebAddress = (url) => typeof url === "string" && /^https?:\/\//i.test(url);

export function Vulnerabilities({ imageId, version }) {
  const path = `/api/docker-images/${encodeURIComponent(imageId)}/versions/${encodeURIComponent(version.id)}/vulnerabilities`;
  const state = useLoad(() => getAllPages(path, {}, "vulnerabilities"), [path]);
  if (!state.data) return <Pending state={state} what="Loading the findings" />;
  const { first: scan, items: findings } = state.data;
  if (scan.scanStatus !== "scanned") {
    return <p class="warning">This version has not been scanned yet: its vulnerabilities are unknown, not none.</p>;
  }
  return (
    <>
      <ScanSummary scan={scan} />
      <FindingsTable findings={findings} />
    </>
  );
}

function ScanSummary({ scan }) {
  return (
    <dl class="facts card">
      <dt>Latest scan</dt>
      <dd>
        {scan.scan.scanner} {scan.scan.scannerVersion || ""}, <When at={scan.scan.scannedAt} />
      </dd>
      <dt>Vulnerability database</dt>
      <dd>
        <When at={scan.scan.vulnDbUpdatedAt} empty="date not reported by the scanner" />
      </dd>
      <dt>Distinct vulnerabilities</dt>
      <dd>
        <Counts counts={scan.vulnerabilityCounts} />
      </dd>
      <dt>Findings in packages</dt>
      <dd>
        <Counts counts={scan.findingCounts} />
      </dd>
      <dt>With a fix</dt>
      <dd>{scan.fixableCount} vulnerabilities have a fixed version in at least one affected package</dd>
      <dt>Vendor VEX</dt>
      <dd>{scan.vexExcludedCount} more not counted: the image vendor's VEX marks them not_affected</dd>
    </dl>
  );
}

// The address's view of the list, with the defaults filled in.
function useFindingsView() {
  const [query, setQuery] = useQuery();
  const sort = kColumns[query.sort] ? query.sort : "severity";
  const descending = query.order ? query.order === "desc" : Boolean(kColumns[sort].descendingFirst);
  return {
    severity: kSeverities.includes(query.severity) ? query.severity : "",
    fixState: kFixStates.includes(query.fixState) ? query.fixState : "",
    sort,
    descending,
    page: Math.max(1, Number.parseInt(query.page, 10) || 1),
    // A new filter or sort starts again at the first page.
    filter: (changes) => setQuery({ ...changes, page: "" }),
    sortBy: (column) => {
      const order = column === sort ? !descending : Boolean(kColumns[column].descendingFirst);
      setQuery({ sort: column, order: order ? "desc" : "asc", page: "" });
    },
    goTo: (page) => setQuery({ page: page === 1 ? "" : String(page) }),
  };
}

function FindingsTable({ findings }) {
  const view = useFindingsView();
  const shown = findings.filter((finding) => (!view.severity || finding.severity === view.severity) && (!view.fixState || finding.fixState === view.fixState));
  // Array.prototype.sort is stable: equal findings keep the API's order (worst first).
  const direction = view.descending ? -1 : 1;
  shown.sort((a, b) => direction * kColumns[view.sort].compare(a, b));
  const pageCount = Math.max(1, Math.ceil(shown.length / kFindingsPerPage));
  const page = Math.min(view.page, pageCount);
  const onPage = shown.slice((page - 1) * kFindingsPerPage, page * kFindingsPerPage);
  // Pager speaks in cursors; here a page number plays the cursor.
  const pages = { page, previous: () => view.goTo(page - 1), next: () => view.goTo(page + 1) };
  return (
    <>
      <div class="row filters">
        <SelectField
          label="Severity"
          value={view.severity}
          onChange={(severity) => view.filter({ severity })}
          options={[["", "All severities"], ...kSeverities.map((level) => [level, level])]}
        />
        <SelectField
          label="Fix state"
          value={view.fixState}
          onChange={(fixState) => view.filter({ fixState })}
          options={[["", "All fix states"], ...kFixStates.map((state) => [state, state])]}
        />
      </div>
      <p role="status">
        {shown.length === findings.length ? `${findings.length} findings` : `${shown.length} of ${findings.length} findings match`}, sorted by{" "}
        {kColumns[view.sort].label.toLowerCase()} {view.descending ? "descending" : "ascending"}
        {pageCount > 1 ? `; page ${page} of ${pageCount}` : ""}.
      </p>
      {shown.length === 0 ? (
        <Empty>{findings.length === 0 ? "The latest scan found no vulnerabilities." : "No finding matches these filters."}</Empty>
      ) : (
        <Table caption={"Findings of the version's latest scan"} class="findings">
            <thead>
              <tr>
                <SortHeader column="id" view={view} />
                <th scope="col">Title</th>
                <SortHeader column="package" view={view} />
                <SortHeader column="severity" view={view} />
                <SortHeader column="cvss" view={view} />
                <SortHeader column="fixState" view={view} />
                <th scope="col">Fixed in</th>
                <th scope="col">Known exploited</th>
                <th scope="col">EPSS</th>
              </tr>
            </thead>
            <tbody>
              {onPage.map((finding, index) => (
                // A finding is an id in a package; the index keeps two alike (a scanner's duplicate) apart.
                <FindingRow key={`${finding.id} ${finding.package.name} ${index}`} finding={finding} />
              ))}
            </tbody>
          </Table>
      )}
      <Pager pages={pages} nextCursor={page < pageCount ? String(page + 1) : null} label="Pages of findings" />
    </>
  );
}

function SortHeader({ column, view }) {
  const active = view.sort === column;
  const arrow = active ? (view.descending ? "▼" : "▲") : "↕";
  return (
    <th scope="col" aria-sort={active ? (view.descending ? "descending" : "ascending") : undefined}>
      <button type="button" class="sort" onClick={() => view.sortBy(column)}>
        {/* No space between: the button's name is the column's label alone, the arrow is drawn. */}
        {kColumns[column].label}
        <span class="sort-arrow" aria-hidden="true">
          {arrow}
        </span>
      </button>
    </th>
  );
}

function FindingRow({ finding }) {
  const { package: pkg } = finding;
  return (
    <tr>
      <th scope="row">
        <Link href={`/cve/${encodeURIComponent(finding.id)}`} class="nowrap" title="Which of your images carry it">
          {finding.id}
        </Link>
        {finding.aliases.length > 0 && <small class="muted block">also {finding.aliases.join(", ")}</small>}
      </th>
      <td>
        {finding.title || <span class="muted">no title</span>}
        {isWebAddress(finding.url) && (
          <>
            {" "}
            <a href={finding.url} target="_blank" rel="noopener noreferrer">
              advisory<span class="visually-hidden"> for {finding.id} (opens in a new tab)</span>
            </a>
          </>
        )}
      </td>
      <td>
        <Package pkg={pkg} />
      </td>
      <td>
        <Severity level={finding.severity} />
      </td>
      <td class="num">{finding.cvssScore === null ? <span class="muted">none</span> : finding.cvssScore.toFixed(1)}</td>
      <td>
        {finding.fixState}
        {finding.vex && (
          <small class="muted block" title={finding.vex.impactStatement || ""}>
            vendor: {finding.vex.status}
            {finding.vex.justification ? ` (${finding.vex.justification})` : ""}
          </small>
        )}
      </td>
      <td>{finding.fixedVersion ? <span class="mono">{finding.fixedVersion}</span> : <span class="muted">none</span>}</td>
      <td>
        <Kev kev={finding.kev} />
      </td>
      <td>
        <Epss epss={finding.epss} />
      </td>
    </tr>
  );
}
