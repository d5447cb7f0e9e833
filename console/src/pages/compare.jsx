// /images/:id/compare?from=<versionId>&to=<versionId>: what moving from one version of an image to
// another changes (docs/compare.md): packages added, removed and changed from the two versions'
// SBOMs, vulnerabilities fixed, introduced and remaining from their latest scans, each with its
// count. Both versions are in the address (the versions table links here with the latest as `to`),
// so a comparison can be shared; `to` absent is the image's latest version, as in the API. The
// API's refusals (a version without a scan or without stored packages: 409) are shown in its words.
import { getJson } from "../api.js";
import { Link, useQuery } from "../router.jsx";
import { Empty, Epss, Kev, Package, PackageLines, Page, Pending, SelectField, Severity, Table, When, useLoad } from "../ui.jsx";
import { ImagePending, useImage } from "./image_detail.jsx";
import { imagePath } from "../paths.js";

export default function Compare({ params }) {
  const [query, setQuery] = useQuery();
  const state = useImage(params.id);
  if (!state.data) return <ImagePending title="Compare versions" state={state} />;
  const image = state.data;
  const from = query.from || "";
  const to = query.to || image.latestVersion?.id || "";
  // A choice is a step back can undo.
  const choose = (changes) => setQuery(changes, { replace: false });
  return (
    <Page title={`Compare versions of ${image.name}`}>
      <p>
        <Link href={imagePath(image.id)}>Back to {image.name}</Link>
      </p>
      <VersionPickers image={image} from={from} to={to} onChoose={choose} />
      {from ? (
        <Comparison key={`${from} ${to}`} imageId={image.id} from={from} to={to} />
      ) : (
        <p role="status">Choose the version to compare from.</p>
      )}
    </Page>
  );
}

function VersionPickers({ image, from, to, onChoose }) {
  const options = image.versions.map((version) => [version.id, version.id === image.latestVersion?.id ? `${version.tag} (latest)` : version.tag]);
  return (
    <form class="row" onSubmit={(event) => event.preventDefault()}>
      <SelectField label="From version" value={from} onChange={(choice) => onChoose({ from: choice })} options={[["", "Choose a version"], ...options]} />
      <SelectField label="To version" value={to} onChange={(choice) => onChoose({ to: choice })} options={options} />
    </form>
  );
}

function Comparison({ imageId, from, to }) {
  const state = useLoad(() => getJson(`/api/docker-images/${encodeURIComponent(imageId)}/compare`, { from, to }), [imageId, from, to]);
  if (!state.data) return <Pending state={state} what="Comparing the versions" />;
  const { packages, vulnerabilities } = state.data;
  return (
    <>
      <Sides comparison={state.data} />
      <Summary packages={packages} vulnerabilities={vulnerabilities} />
      <VulnerabilityList title="Vulnerabilities fixed" what="fixed" entries={vulnerabilities.fixed} count={vulnerabilities.fixedCount} />
      <VulnerabilityList title="Vulnerabilities introduced" what="introduced" entries={vulnerabilities.introduced} count={vulnerabilities.introducedCount} />
      <VulnerabilityList title="Vulnerabilities remaining" what="remaining" entries={vulnerabilities.remaining} count={vulnerabilities.remainingCount} />
      <PackageList title="Packages added" what="added" entries={packages.added} count={packages.addedCount} />
      <PackageList title="Packages removed" what="removed" entries={packages.removed} count={packages.removedCount} />
      <PackageList title="Packages changed" what="changed" entries={packages.changed} count={packages.changedCount} />
    </>
  );
}

// Which scan stands for each version: its latest.
function Sides({ comparison }) {
  const side = (version) => (
    <>
      <Link href={imagePath(comparison.image.id, version.id)}>{version.tag}</Link> <code class="muted">{version.digest}</code>
      <small class="muted block">
        latest scan <When at={version.scan.scannedAt} />
      </small>
    </>
  );
  return (
    <dl class="facts card">
      <dt>From</dt>
      <dd>{side(comparison.from)}</dd>
      <dt>To</dt>
      <dd>{side(comparison.to)}</dd>
    </dl>
  );
}

// Every count at a glance, each a link to its list.
function Summary({ packages, vulnerabilities }) {
  const rows = [
    ["fixed", "Vulnerabilities fixed", vulnerabilities.fixedCount],
    ["introduced", "Vulnerabilities introduced", vulnerabilities.introducedCount],
    ["remaining", "Vulnerabilities remaining", vulnerabilities.remainingCount],
    ["added", "Packages added", packages.addedCount],
    ["removed", "Packages removed", packages.removedCount],
    ["changed", "Packages changed", packages.changedCount],
  ];
  return (
    <Table caption="What the move changes, in counts" class="compare-summary">
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Count</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([what, label, count]) => (
          <tr key={what} data-what={what}>
            <th scope="row">
              <a href={`#compare-${what}`}>{label}</a>
            </th>
            <td class="num">{count}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function ListHeading({ what, title, count }) {
  return (
    <h2 id={`compare-${what}`}>
      {title} <span class="tag">{count}</span>
    </h2>
  );
}

function VulnerabilityList({ title, what, entries, count }) {
  return (
    <section aria-labelledby={`compare-${what}`}>
      <ListHeading what={what} title={title} count={count} />
      {entries.length === 0 ? (
        <Empty>None.</Empty>
      ) : (
        <Table caption={`${title}, known exploited first, then by EPSS and severity`} class={`compare-vulns compare-${what}`}>
          <thead>
            <tr>
              <th scope="col">Vulnerability</th>
              <th scope="col">Severity</th>
              <th scope="col">Known exploited</th>
              <th scope="col">EPSS</th>
              <th scope="col">Fix state</th>
              <th scope="col">Packages</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <th scope="row">
                  <Link href={`/cve/${encodeURIComponent(entry.id)}`} class="nowrap" title="Which of your images carry it">
                    {entry.id}
                  </Link>
                  {entry.aliases.length > 0 && <small class="muted block">also {entry.aliases.join(", ")}</small>}
                </th>
                <td>
                  <Severity level={entry.severity} />
                </td>
                <td>
                  <Kev kev={entry.kev} />
                </td>
                <td>
                  <Epss epss={entry.epss} />
                </td>
                <td>{entry.fixState}</td>
                <td>
                  <PackageLines list={entry.packages} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

// A version's cell: the version, or "none" on the side that lacks the package.
const Version = ({ value }) => (value ? <span class="mono">{value}</span> : <span class="muted">none</span>);

function PackageList({ title, what, entries, count }) {
  return (
    <section aria-labelledby={`compare-${what}`}>
      <ListHeading what={what} title={title} count={count} />
      {entries.length === 0 ? (
        <Empty>None.</Empty>
      ) : (
        <Table caption={`${title}, by package`} class={`compare-packages compare-${what}`}>
          <thead>
            <tr>
              <th scope="col">Package</th>
              {what !== "added" && <th scope="col">From version</th>}
              {what !== "removed" && <th scope="col">To version</th>}
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.fromPurl || entry.toPurl}>
                <th scope="row">
                  <Package pkg={{ name: entry.name, type: entry.type, purl: entry.purl }} />
                </th>
                {what !== "added" && (
                  <td>
                    <Version value={entry.fromVersion} />
                  </td>
                )}
                {what !== "removed" && (
                  <td>
                    <Version value={entry.toVersion} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
