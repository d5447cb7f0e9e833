// A version's attestations (docs/verify.md): for each served document an in-toto statement about the
// version's digest whose predicate is the document, signed with the vendor's P-256 key, as a
// Sigstore bundle. Listed with their predicate type and key, each bundle offered for download, and
// the commands that verify them all: icat verify, and cosign against the published key.
//
// Like the SBOMs, a bundle needs the Bearer token: fetched by fetchAttachment, saved by useDownload.
import { fetchAttachment, getJson } from "../../api.js";
import { CommandBox, Empty, ErrorNotice, Pending, Table, formatBytes, useDownload, useLoad } from "../../ui.jsx";

const kBundleMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json";

const versionPath = (image, version) =>
  `/api/docker-images/${encodeURIComponent(image.id)}/versions/${encodeURIComponent(version.id)}`;

const fetchBundle = (image, version, attestation) =>
  fetchAttachment(
    `${versionPath(image, version)}/attestations/${encodeURIComponent(attestation.type)}`,
    kBundleMediaType,
    `${image.name.replaceAll("/", "_")}_${version.tag}.${attestation.type}.sigstore.json`,
  );

export function Attestations({ image, version }) {
  const state = useLoad(() => getJson(`${versionPath(image, version)}/attestations`), [image.id, version.id]);
  if (!state.data) return <Pending state={state} what="Loading the attestations" />;
  const { attestations } = state.data;
  if (attestations.length === 0) {
    return <Empty>This version has no attestations: the service has signed none of its documents yet.</Empty>;
  }
  return (
    <>
      <p>
        Each served document is also attested: a statement about this version's digest, whose content is the document exactly
        as served, signed with the vendor's ECDSA P-256 key (a Sigstore bundle). The keys are published at{" "}
        <a href="/v1/signing-keys">/v1/signing-keys</a>.
      </p>
      <Table caption={`Attestations of ${version.tag}`}>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Predicate type</th>
            <th scope="col">Signing key</th>
            <th scope="col">Bundle</th>
          </tr>
        </thead>
        <tbody>
          {attestations.map((attestation) => (
            <tr key={attestation.type}>
              <th scope="row">{attestation.type}</th>
              <td>
                <code>{attestation.predicateType}</code>
              </td>
              <td>
                <code>{attestation.keyId}</code>
              </td>
              <td>
                <BundleDownload image={image} version={version} attestation={attestation} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <h4>Verify them</h4>
      <p>
        With <code>icat</code>, the service's client (every attestation: signature, digest and document):
      </p>
      <CommandBox label="icat verify command" text={`icat verify ${image.repository}@${version.digest}`} />
      <p>
        With cosign, from the registry (signed in with an API key of scope <code>pull</code>), against the published key:
      </p>
      <CommandBox label="cosign verify-attestation commands" text={cosignCommands(image, version, attestations)} />
    </>
  );
}

// The key of each signing key id, then one verify-attestation per predicate type (cosign checks
// every attestation of that type attached to the image). No transparency log is used.
function cosignCommands(image, version, attestations) {
  const reference = `${image.repository}@${version.digest}`;
  const keyFile = (keyId) => `icat-attestation-${keyId}.pub`;
  const keyIds = [...new Set(attestations.map((attestation) => attestation.keyId))];
  const types = new Map(attestations.map((attestation) => [attestation.predicateType, attestation.keyId]));
  return [
    ...keyIds.map((keyId) => `curl -so ${keyFile(keyId)} ${location.origin}/v1/signing-keys/${keyId}`),
    ...[...types].map(([predicateType, keyId]) => `cosign verify-attestation --key ${keyFile(keyId)} --insecure-ignore-tlog --type ${predicateType} ${reference}`),
  ].join("\n");
}

function BundleDownload({ image, version, attestation }) {
  const { file, saveLink, busy, error, submit } = useDownload(() => fetchBundle(image, version, attestation));
  return (
    <>
      <button type="button" onClick={submit} disabled={busy}>
        {busy ? "Downloading…" : `Download the ${attestation.type} attestation`}
      </button>
      <ErrorNotice error={error} />
      {file && (
        <p role="status">
          Downloaded ({formatBytes(file.size)}).{" "}
          <a ref={saveLink} href={file.url} download={file.name}>
            Save {file.name} again
          </a>
        </p>
      )}
    </>
  );
}
