// A version's SBOMs: the two downloads and what each holds (completeness, measured at ingest).
//
// The downloads need the Bearer token, so a plain link cannot fetch them: fetchAttachment (api.js)
// keeps the bytes received, byte for byte, and useDownload (ui.jsx) saves them through an
// <a download> on an object URL. The page hashes the bytes itself and compares with the ETag, and
// gives the commands that check the signature the service sent with them.
import { fetchAttachment } from "../../api.js";
import { ErrorNotice, formatBytes, useDownload, Table } from "../../ui.jsx";

const kFormats = [
  { key: "spdx", label: "SPDX 2.3", mediaType: "application/spdx+json", extension: "spdx.json" },
  { key: "cyclonedx", label: "CycloneDX 1.5", mediaType: "application/vnd.cyclonedx+json", extension: "cdx.json" },
];

const toHex = (buffer) => [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");

// Single quotes for the shell, so a file name is taken as it is.
const shellWord = (text) => (/^[\w.+@:=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

async function fetchSbom(image, version, format) {
  const path = `/api/docker-images/${encodeURIComponent(image.id)}/versions/${encodeURIComponent(version.id)}/sbom/${format.key}`;
  const file = await fetchAttachment(path, format.mediaType, `${image.name.replaceAll("/", "_")}_${version.tag}.${format.extension}`);
  const sha256 = toHex(await crypto.subtle.digest("SHA-256", file.bytes));
  const headers = file.headers;
  const etag = headers.get("ETag") || "";
  return {
    name: file.name,
    url: file.url,
    size: file.size,
    sha256,
    etag,
    // A weak ETag (W/) names the same bytes when a proxy compressed them on the way.
    matchesEtag: etag.replace(/^W\//, "") === `"sha256:${sha256}"`,
    reprDigest: headers.get("Repr-Digest") || "",
    signature: headers.get("X-Signature") || "",
    keyId: headers.get("X-Signature-Key-Id") || "",
  };
}

export function SbomDownloads({ image, version }) {
  if (version.scanStatus !== "scanned") return <p class="muted">This version has not been scanned, so it has no SBOM yet.</p>;
  return (
    <>
      <p>
        Each file is exactly what the scanner wrote, signed by the service (Ed25519). Once saved, its SHA-256 and the way to
        check its signature are shown here.
      </p>
      <div class="sbom-downloads">
        {kFormats.map((format) => (
          <SbomDownload key={format.key} image={image} version={version} format={format} />
        ))}
      </div>
    </>
  );
}

function SbomDownload({ image, version, format }) {
  const { file, saveLink, busy, error, submit } = useDownload(() => fetchSbom(image, version, format));
  return (
    <div class="card">
      <h4>{format.label}</h4>
      <button type="button" class="primary" onClick={submit} disabled={busy}>
        {busy ? "Downloading…" : `Download the ${format.label} SBOM`}
      </button>
      <ErrorNotice error={error} />
      {file && <SavedFile file={file} saveLink={saveLink} />}
    </div>
  );
}

function SavedFile({ file, saveLink }) {
  return (
    <>
      <p role="status">
        Downloaded ({formatBytes(file.size)}).{" "}
        <a ref={saveLink} href={file.url} download={file.name}>
          Save {file.name} again
        </a>
      </p>
      <dl class="facts">
        <dt>SHA-256</dt>
        <dd>
          <code>{file.sha256}</code>{" "}
          {file.matchesEtag ? (
            <span class="success">equals the service's ETag</span>
          ) : (
            <strong class="error-text">differs from the service's ETag {file.etag}: do not use this file</strong>
          )}
        </dd>
        <dt>Repr-Digest</dt>
        <dd>
          <code>{file.reprDigest}</code>
        </dd>
        <dt>Signature</dt>
        <dd>
          <code>{file.signature}</code>
        </dd>
        <dt>Signing key</dt>
        <dd>
          <code>{file.keyId}</code> in <a href="/v1/signing-keys">/v1/signing-keys</a>
        </dd>
      </dl>
      <p>To check the signature, in the folder of the saved file (OpenSSL 3.0 or later):</p>
      {/* Lines kept whole, as they are typed; the box scrolls, so it takes the keyboard's focus. */}
      <pre class="commands" tabIndex={0}>
        <code>{verifyCommands(file)}</code>
      </pre>
    </>
  );
}

// docs/scans.md, "Verifying a download", with this file's values filled in.
function verifyCommands(file) {
  const name = shellWord(file.name);
  const signatureFile = shellWord(file.name + ".sig");
  return [
    `sha256sum ${name}`,
    `# ${file.sha256}`,
    `echo ${shellWord(file.signature)} | base64 -d > ${signatureFile}`,
    `curl -s ${shellWord(location.origin + "/v1/signing-keys")} \\`,
    `  | jq -r '.keys[] | select(.id == "${file.keyId}") | .publicKeyPem' > icat-signing-key.pem`,
    `openssl pkeyutl -verify -pubin -inkey icat-signing-key.pem -rawin -in ${name} -sigfile ${signatureFile}`,
    `# Signature Verified Successfully`,
  ].join("\n");
}

// What each SBOM holds of SPEC.md section 1 rule 3 (packages with exact versions and checksums,
// the full dependency graph, SPDX licences, tool and image digest), one column per format.
const kFigures = [
  ["Packages", (f) => f.packages],
  ["Package kinds", (f) => Object.entries(f.packageKinds).map(([kind, count]) => `${kind} ${count}`).join(", ") || "none"],
  ["With an exact version", (f) => `${f.exactVersions} of ${f.packages}`],
  ["With a checksum", (f) => `${f.checksums} of ${f.packages}`],
  ["Placed in the dependency graph", (f) => `${f.inDependencyGraph} of ${f.packages}`],
  ["Relationships", (f) => f.relationships],
  ["With SPDX licence ids", (f) => `${f.spdxLicenses} of ${f.packages}`],
  ["Tool", (f) => [f.toolName || "not named", f.toolVersion, f.toolVersion && !f.toolVersionIsRelease ? "(not a release)" : ""].filter(Boolean).join(" ")],
  ["Image digest", (f) => (f.imageDigest ? <code>{f.imageDigest}</code> : "not named")],
  ["Complete", (f) => (f.meetsRule3 ? "yes" : `no: ${f.shortfalls.join("; ")}`)],
];

export function SbomCompleteness({ completeness }) {
  const formats = kFormats.filter((format) => completeness?.[format.key]);
  if (formats.length === 0) {
    return <p class="muted">Not measured: the version was never scanned, or its scan was ingested before the service measured SBOMs.</p>;
  }
  return (
    <Table caption={"What each SBOM of the latest scan holds"}>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            {formats.map((format) => (
              <th scope="col" key={format.key}>
                {format.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {kFigures.map(([label, show]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {formats.map((format) => (
                <td key={format.key}>{show(completeness[format.key])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
  );
}
