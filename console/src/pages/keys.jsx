// /keys (admins only; app.jsx tells anyone else why it is closed): the tenant's keys for the public
// API (/v1). A new key is shown once, right after it is made: the service keeps only its hash, and
// this page keeps it only until the person dismisses it or leaves the page.
import { useEffect, useRef, useState } from "preact/hooks";
import { sendJson } from "../api.js";
import {
  Checkboxes,
  ConfirmButton,
  DateTimeField,
  Empty,
  ErrorNotice,
  Page,
  Pager,
  Pending,
  SecretOnce,
  Table,
  TextField,
  When,
  toLocalInput,
  usePagedList,
  useSubmit,
} from "../ui.jsx";
import { kScopes } from "../vocabulary.js";

const kStateTone = { active: "good", revoked: "bad", expired: "quiet" };

// A first call for each scope of the new key, to paste into a terminal while the key is at hand.
function exampleCalls(secret, scopes) {
  const auth = `-H "Authorization: Bearer ${secret}"`;
  const base = location.origin;
  const calls = {
    "read:catalog": `curl ${auth} ${base}/v1/images`,
    "read:sbom": `curl ${auth} "${base}/v1/images/IMAGE_ID/sbom?format=spdx"`,
    "read:vulns": `curl ${auth} ${base}/v1/cve/CVE-2024-3094`,
    admission: `curl -X POST ${auth} -H "Content-Type: application/json" --data @admission-review.json ${base}/v1/admission`,
    pull: `skopeo login -u ${location.hostname.split(".")[0]} -p ${secret} ${location.host}`,
  };
  return kScopes.filter(([scope]) => scopes.includes(scope)).map(([scope]) => calls[scope]);
}

function NewKey({ apiKey, onDismiss }) {
  // The key's field takes the focus (which selects it, ready to copy) and tells screen readers
  // what appeared.
  const frame = useRef(null);
  useEffect(() => frame.current.querySelector("input").focus(), []);
  return (
    <div ref={frame}>
      <SecretOnce label={`New API key: ${apiKey.name}`} value={apiKey.secret}>
        <p>Try it:</p>
        <pre class="example">
          <code>{exampleCalls(apiKey.secret, apiKey.scopes).join("\n")}</code>
        </pre>
        <button type="button" onClick={onDismiss}>
          I have stored the key
        </button>
      </SecretOnce>
    </div>
  );
}

function NewKeyForm({ onCreated }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState([]);
  const [expiresAt, setExpiresAt] = useState("");
  const { busy, error, submit } = useSubmit(async () => {
    const created = await sendJson("POST", "/api/api-keys", { name, scopes, ...(expiresAt ? { expiresAt } : {}) });
    setName("");
    setScopes([]);
    setExpiresAt("");
    onCreated(created);
  });
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-key-title">
      <h2 id="new-key-title">New API key</h2>
      <TextField label="Name" hint="Say where it is used, e.g. the cluster or pipeline: 1 to 100 characters." value={name} onInput={setName} required maxLength={100} />
      <Checkboxes legend="Scopes" options={kScopes} value={scopes} onChange={setScopes} />
      <DateTimeField label="Expires (optional)" hint="Leave empty for a key that does not expire." value={expiresAt} onChange={setExpiresAt} min={toLocalInput(new Date().toISOString())} />
      <ErrorNotice error={error} />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? "Creating…" : "Create key"}
      </button>
    </form>
  );
}

function KeyRow({ apiKey, onRevoked }) {
  return (
    <tr>
      <th scope="row">{apiKey.name}</th>
      <td class="nowrap">
        <code>{apiKey.prefix}</code>
      </td>
      <td>{apiKey.scopes.join(", ")}</td>
      <td>
        <When at={apiKey.createdAt} />
      </td>
      <td>
        <When at={apiKey.expiresAt} empty="does not expire" />
      </td>
      <td>
        <When at={apiKey.lastUsedAt} />
      </td>
      <td>
        <span class={"badge " + kStateTone[apiKey.state]}>{apiKey.state}</span>
      </td>
      <td>
        {apiKey.state === "active" && (
          <ConfirmButton
            label={
              <>
                Revoke<span class="visually-hidden"> {apiKey.name}</span>
              </>
            }
            question={`Revoke "${apiKey.name}"? Every client using it is refused within a second.`}
            confirmLabel="Yes, revoke"
            onConfirm={async () => {
              await sendJson("DELETE", `/api/api-keys/${encodeURIComponent(apiKey.id)}`);
              onRevoked();
            }}
          />
        )}
      </td>
    </tr>
  );
}

function KeyList() {
  const list = usePagedList("/api/api-keys");
  const { pages } = list;
  if (!list.data) return <Pending state={list} what="Loading the keys" />;
  const { apiKeys, nextCursor } = list.data;
  if (apiKeys.length === 0 && pages.page === 1) return <Empty>No API keys yet.</Empty>;
  return (
    <>
      <Table caption="API keys, newest first">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {apiKeys.map((apiKey) => (
            <KeyRow key={apiKey.id} apiKey={apiKey} onRevoked={list.reload} />
          ))}
        </tbody>
      </Table>
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of API keys" />
    </>
  );
}

export default function Keys() {
  const [created, setCreated] = useState(null);
  // A new key goes to the top of the list: the list starts again at its first page.
  const [listVersion, setListVersion] = useState(0);
  return (
    <Page title="API keys">
      <p>
        Keys authenticate scripts and clusters to the public API (<code>/v1</code>). The list shows each key's prefix, never
        the key.
      </p>
      {created && <NewKey key={created.id} apiKey={created} onDismiss={() => setCreated(null)} />}
      <NewKeyForm
        onCreated={(apiKey) => {
          setCreated(apiKey);
          setListVersion(listVersion + 1);
        }}
      />
      <h2>Keys</h2>
      <KeyList key={listVersion} />
    </Page>
  );
}
