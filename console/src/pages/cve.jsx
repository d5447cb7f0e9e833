// /cve and /cve/:cveId: which of the tenant's licensed images carry a CVE (or GHSA) id, in which
// packages, how severe and whether fixed. The form goes to the id's own address, so a result can
// be bookmarked and shared; ?versions=all widens the look-up from each image's latest version to
// every version. The id is not checked here: the API's answer to a malformed one says in its own
// words what is wrong.
import { useState } from "preact/hooks";
import { getJson } from "../api.js";
import { Link, navigate, useQuery } from "../router.jsx";
import { Package, Page, Pending, SelectField, Severity, TextField, When, useLoad, Table } from "../ui.jsx";
import { imagePath } from "../paths.js";

const kVersionChoices = [
  ["latest", "Each image's latest version"],
  ["all", "Every version"],
];

export default function Cve({ params }) {
  const [query, setQuery] = useQuery();
  const versions = query.versions === "all" ? "all" : "latest";
  return (
    // Ids are upper case wherever the service shows them.
    <Page title={params.cveId ? `CVE look-up: ${params.cveId.toUpperCase()}` : "CVE look-up"}>
      <LookUpForm cveId={params.cveId || ""} versions={versions} onVersions={(choice) => setQuery({ versions: choice === "latest" ? "" : choice })} />
      {params.cveId && <LookUpResult cveId={params.cveId} versions={versions} />}
    </Page>
  );
}

function LookUpForm({ cveId, versions, onVersions }) {
  const [id, setId] = useState(cveId);
  const submit = (event) => {
    event.preventDefault();
    navigate(`/cve/${encodeURIComponent(id.trim())}${versions === "all" ? "?versions=all" : ""}`);
  };
  return (
    <form role="search" class="row" onSubmit={submit}>
      <TextField label="CVE or GHSA id" hint="For example CVE-2024-3094 or GHSA-xxxx-xxxx-xxxx" value={id} onInput={setId} required spellCheck={false} />
      <SelectField label="Look in" value={versions} onChange={onVersions} options={kVersionChoices} />
      <button type="submit" class="primary">
        Look up
      </button>
    </form>
  );
}

function LookUpResult({ cveId, versions }) {
  const state = useLoad(() => getJson(`/api/cve/${encodeURIComponent(cveId)}`, { versions }), [cveId, versions]);
  if (!state.data) return <Pending state={state} what={`Looking up ${cveId}`} />;
  const result = state.data;
  const where = result.versions === "all" ? "any version of" : "the latest version of";
  return (
    <>
      <h2>Affected images</h2>
      <p role="status">
        {result.images.length === 0
          ? `${result.cveId} is in ${where} none of your licensed images.`
          : `${result.cveId} is in ${where} ${result.images.length} of your licensed images.`}
      </p>
      {result.images.map((image) => (
        <AffectedImage key={image.id} image={image} />
      ))}
      {result.unscannedImages.length > 0 && <UnscannedImages images={result.unscannedImages} cveId={result.cveId} />}
    </>
  );
}

function AffectedImage({ image }) {
  return (
    <section class="card" aria-labelledby={"affected-" + image.id}>
      <h3 id={"affected-" + image.id}>
        <Link href={imagePath(image.id)}>{image.name}</Link>
      </h3>
      <p>
        <code class="muted">{image.repository}</code>
      </p>
      <Table caption={`Affected packages of ${image.name}, by version`}>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Scanned</th>
              <th scope="col">Package</th>
              <th scope="col">Finding</th>
              <th scope="col">Severity</th>
              <th scope="col">Fix state</th>
              <th scope="col">Fixed in</th>
            </tr>
          </thead>
          <tbody>
            {image.versions.flatMap((version) =>
              version.packages.map((pkg, index) => (
                <tr key={`${version.id} ${index}`}>
                  <th scope="row">
                    <Link href={imagePath(image.id, version.id)}>{version.tag}</Link>
                    {version.latest && <span class="tag">latest</span>}
                    <small class="muted block mono">{version.digest}</small>
                  </th>
                  <td>
                    <When at={version.scan.scannedAt} />
                  </td>
                  <td>
                    <Package pkg={pkg} />
                  </td>
                  <td class="nowrap">{pkg.vulnerabilityId}</td>
                  <td>
                    <Severity level={pkg.severity} />
                  </td>
                  <td>{pkg.fixState}</td>
                  <td>{pkg.fixedVersion ? <span class="mono">{pkg.fixedVersion}</span> : <span class="muted">none</span>}</td>
                </tr>
              )),
            )}
          </tbody>
        </Table>
    </section>
  );
}

function UnscannedImages({ images, cveId }) {
  return (
    <>
      <h2>Not scanned</h2>
      <p>These versions were never scanned, so whether they carry {cveId} is unknown:</p>
      <ul>
        {images.flatMap((image) =>
          image.versions.map((version) => (
            <li key={version.id}>
              <Link href={imagePath(image.id, version.id)}>
                {image.name} {version.tag}
              </Link>
              {version.latest && <span class="tag">latest</span>} <code class="muted">{version.digest}</code>
            </li>
          )),
        )}
      </ul>
    </>
  );
}
