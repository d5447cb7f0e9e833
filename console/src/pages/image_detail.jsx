// /images/:id?version=<versionId>: an image's facts and versions (with the tenant's pulls of each),
// and for the version chosen (the latest when none is named) how to pull it, its vulnerabilities,
// SBOM downloads, attestations, SBOM completeness and scan history. The version is in the address,
// so a link or a reload shows the same one.
import { getJson, session } from "../api.js";
import { Link, useQuery } from "../router.jsx";
import { CommandBox, Counts, Empty, Page, Pending, When, formatBytes, useLoad, Table } from "../ui.jsx";
import { Attestations } from "./image_detail/attestations.jsx";
import { SbomCompleteness, SbomDownloads } from "./image_detail/sbom.jsx";
import { ScanHistory } from "./image_detail/scan_history.jsx";
import { Vulnerabilities } from "./image_detail/vulnerabilities.jsx";
import { comparePath, imagePath } from "../paths.js";

// The image of an /images/:id page (this one and the compare page), loaded once per id.
export const useImage = (id) => useLoad(() => getJson(`/api/docker-images/${encodeURIComponent(id)}`), [id]);

// What such a page shows until its image is loaded, or when it cannot be.
export function ImagePending({ title, state }) {
  return (
    <Page title={title}>
      <Pending state={state} what="Loading the image" />
      <p>
        <Link href="/images">Back to the images</Link>
      </p>
    </Page>
  );
}

export default function ImageDetail({ params }) {
  const [query] = useQuery();
  const state = useImage(params.id);
  if (!state.data) return <ImagePending title="Image" state={state} />;
  const image = state.data;
  const chosen = image.versions.find((version) => version.id === query.version);
  const version = chosen || image.versions[0];
  return (
    <Page title={image.name}>
      <ImageFacts image={image} />
      <h2>Versions</h2>
      {query.version && !chosen && (
        <p class="warning" role="alert">
          This image has no version with the id in the address; the latest is shown instead.
        </p>
      )}
      {version ? (
        <>
          <VersionTable image={image} chosenId={version.id} />
          {/* Keyed by version: its findings, filters' data and downloads start afresh. */}
          <VersionPanel key={version.id} image={image} version={version} />
        </>
      ) : (
        <Empty>No version of this image has been published yet.</Empty>
      )}
    </Page>
  );
}

function Tags({ tags }) {
  if (!tags?.length) return <span class="muted">none</span>;
  return tags.map((tag) => (
    <span key={tag} class="tag">
      {tag}
    </span>
  ));
}

function ImageFacts({ image }) {
  return (
    <div class="card">
      <dl class="facts">
        <dt>Description</dt>
        <dd>{image.description}</dd>
        <dt>Repository</dt>
        <dd>
          <code>{image.repository}</code>
        </dd>
        <dt>Base OS</dt>
        <dd>{image.baseOs || <span class="muted">not stated</span>}</dd>
        <dt>Latest version</dt>
        <dd>
          {image.latestVersion ? (
            <>
              {image.latestVersion.tag}, {formatBytes(image.sizeBytes)}, published <When at={image.latestVersion.publishedAt} />
            </>
          ) : (
            <span class="muted">none yet</span>
          )}
        </dd>
        <dt>Hardening</dt>
        <dd>
          <Tags tags={image.hardeningTags} />
        </dd>
      </dl>
    </div>
  );
}

function ScanState({ version }) {
  if (version.scanStatus !== "scanned") return <span>not scanned: vulnerabilities unknown</span>;
  return (
    <span>
      scanned <When at={version.lastScannedAt} />
    </span>
  );
}

function VersionTable({ image, chosenId }) {
  return (
    <Table caption={`Versions of ${image.name}, newest first; choose one to see its findings and SBOMs`}>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Digest</th>
            <th scope="col">Published</th>
            <th scope="col">Size</th>
            <th scope="col">Hardening</th>
            <th scope="col">Scan</th>
            <th scope="col">Vulnerabilities</th>
            <th scope="col">Your pulls</th>
            <th scope="col">Compare</th>
          </tr>
        </thead>
        <tbody>
          {image.versions.map((version) => {
            const isChosen = version.id === chosenId;
            return (
              <tr key={version.id} class={isChosen ? "chosen" : undefined}>
                <th scope="row">
                  <Link href={imagePath(image.id, version.id)} aria-current={isChosen ? "true" : undefined}>
                    {version.tag}
                  </Link>
                  {version.id === image.latestVersion?.id && <span class="tag">latest</span>}
                  {isChosen && <small class="muted"> (shown below)</small>}
                </th>
                <td>
                  <code>{version.digest}</code>
                </td>
                <td>
                  <When at={version.publishedAt} />
                </td>
                <td>{formatBytes(version.sizeBytes)}</td>
                <td>
                  <Tags tags={version.hardeningTags} />
                </td>
                <td>
                  <ScanState version={version} />
                </td>
                <td>{version.scanStatus === "scanned" ? <Counts counts={version.vulnerabilityCounts} /> : <span class="muted">unknown</span>}</td>
                <td>
                  <Pulls version={version} />
                </td>
                <td>
                  <CompareWithLatest image={image} version={version} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </Table>
  );
}

// What moving from this version to the latest changes (pages/compare.jsx); the latest itself has
// nothing to compare with.
function CompareWithLatest({ image, version }) {
  const latest = image.latestVersion;
  if (!latest || version.id === latest.id) return <span class="muted">latest</span>;
  return (
    <Link href={comparePath(image.id, version.id, latest.id)} class="nowrap">
      Compare with latest<span class="visually-hidden"> ({version.tag} to {latest.tag})</span>
    </Link>
  );
}

// How often this tenant pulled the version from the registry, and when last.
function Pulls({ version }) {
  if (!version.pullCount) return <span class="muted">none</span>;
  return (
    <span>
      {version.pullCount}, last <When at={version.lastPulledAt} />
    </span>
  );
}

// The version's pull command, and how a cluster pulls it (docs/registry.md): a pull secret of the
// tenant's name and an API key with scope pull, named by the pod's imagePullSecrets.
function PullIt({ image, version }) {
  const reference = `${image.repository}@${version.digest}`;
  const host = image.repository.split("/")[0];
  const tenant = session.get()?.tenant || "TENANT";
  const secret = [
    "kubectl create secret docker-registry icat-pull \\",
    `  --docker-server=${host} \\`,
    `  --docker-username=${tenant} \\`,
    "  --docker-password=<an API key with scope pull>",
  ].join("\n");
  const podSpec = ["spec:", "  imagePullSecrets:", "    - name: icat-pull", "  containers:", `    - name: ${image.name}`, `      image: ${reference}`].join("\n");
  return (
    <>
      <CommandBox label="Pull command" text={`docker pull ${reference}`} />
      <p>
        Sign in to <code>{host}</code> first (<code>docker login {host}</code>): the username is your tenant, <code>{tenant}</code>, the password an{" "}
        <Link href="/keys">API key</Link> with scope <code>pull</code>.
      </p>
      <h4>Use in a cluster</h4>
      <p>Store the credential as a pull secret in the namespace of your workload:</p>
      <CommandBox label="Pull secret command" text={secret} />
      <p>
        and name it in the pod spec under <code>imagePullSecrets</code>:
      </p>
      <CommandBox label="Pod spec" text={podSpec} />
    </>
  );
}

function VersionPanel({ image, version }) {
  return (
    <section aria-labelledby="version-title">
      <h2 id="version-title">
        Version {version.tag}
        {version.id === image.latestVersion?.id ? " (latest)" : ""}
      </h2>
      <h3>Pull it by digest</h3>
      <PullIt image={image} version={version} />
      <h3>Vulnerabilities</h3>
      <Vulnerabilities imageId={image.id} version={version} />
      <h3>SBOM downloads</h3>
      <SbomDownloads image={image} version={version} />
      <h3>Attestations</h3>
      <Attestations image={image} version={version} />
      <h3>SBOM completeness</h3>
      <SbomCompleteness completeness={version.sbomCompleteness} />
      <h3>Scan history</h3>
      <ScanHistory imageId={image.id} version={version} />
    </section>
  );
}
