// /audit (admins only; app.jsx tells anyone else why it is closed): the tenant's audit log, newest
// first (GET /api/audit-log), filtered on one action: who did what to which record, from where,
// with the request and trace ids that find the same request in the service's logs.
import { useState } from "preact/hooks";
import { session } from "../api.js";
import { useQuery } from "../router.jsx";
import { Empty, Page, Pager, Pending, Table, TextField, When, usePagedList } from "../ui.jsx";

// The actions the service writes (docs/portal.md), offered as suggestions; any other is accepted.
const kActions = [
  "login.succeeded",
  "login.failed",
  "session.refreshed",
  "session.reuse_detected",
  "session.logout",
  "role.denied",
  "key.created",
  "key.revoked",
  "cve_watch.created",
  "cve_watch.deleted",
  "feature_request.created",
  "feature_request.status_changed",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.pinged",
  "admission_policy.updated",
];

const kMaxActionChars = 100;
// A detail longer than this (a whole stored policy) is folded away, to keep rows readable.
const kFoldDetailChars = 160;

// A person by their email as it was then (it stays after they are deleted), with their id beside it.
function Actor({ actor, email }) {
  const me = session.get()?.user?.id;
  return (
    <>
      {email && <>{email} </>}
      <code>{actor}</code>
      {me && actor === `user:${me}` && <span class="muted"> (you)</span>}
    </>
  );
}

// Words as they are, a list of words as a list (scopes, events), anything else as JSON.
function detailValue(value) {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join(", ");
  return JSON.stringify(value);
}

function Detail({ detail }) {
  const entries = Object.entries(detail || {});
  if (entries.length === 0) return <span class="muted">none</span>;
  const text = JSON.stringify(detail, null, 2);
  if (text.length > kFoldDetailChars) {
    return (
      <details>
        <summary>{entries.map(([name]) => name).join(", ")}</summary>
        <pre class="example">{text}</pre>
      </details>
    );
  }
  return (
    <ul class="plain">
      {entries.map(([name, value]) => (
        <li key={name}>
          {name}: <code>{detailValue(value)}</code>
        </li>
      ))}
    </ul>
  );
}

const orNone = (value) => (value ? <code>{value}</code> : <span class="muted">none</span>);

function AuditList({ action }) {
  const list = usePagedList("/api/audit-log", { action });
  const { pages } = list;
  if (!list.data) return <Pending state={list} what="Loading the audit log" />;
  const { entries, nextCursor } = list.data;
  if (entries.length === 0 && pages.page === 1) return <Empty>No entries{action ? ` with action ${action}` : ""}.</Empty>;
  return (
    <>
      <Table caption="Audit log, newest first">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Detail</th>
            <th scope="col">Client IP</th>
            <th scope="col">Request id</th>
            <th scope="col">Trace id</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <th scope="row" class="nowrap">
                <When at={entry.at} />
              </th>
              <td>
                <Actor actor={entry.actor} email={entry.actorEmail} />
              </td>
              <td>{entry.action}</td>
              <td>{orNone(entry.target)}</td>
              <td class="wide">
                <Detail detail={entry.detail} />
              </td>
              <td class="nowrap">{orNone(entry.clientIp)}</td>
              <td>{orNone(entry.requestId)}</td>
              <td>{orNone(entry.traceId)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of the audit log" />
    </>
  );
}

// The filter applies when submitted, not at each keystroke: the API matches the action exactly.
function ActionFilter({ action, onApply }) {
  const [typed, setTyped] = useState(action);
  const apply = (event, value) => {
    event.preventDefault();
    setTyped(value);
    onApply(value.trim());
  };
  return (
    <form class="filters" role="search" aria-label="Filter the audit log" onSubmit={(event) => apply(event, typed)}>
      <TextField label="Action" value={typed} onInput={setTyped} list="audit-actions" maxLength={kMaxActionChars} />
      <datalist id="audit-actions">
        {kActions.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <button type="submit">Filter</button>
      {action && (
        <button type="button" onClick={(event) => apply(event, "")}>
          Show every action
        </button>
      )}
    </form>
  );
}

export default function Audit() {
  const [query, setQuery] = useQuery();
  const action = query.action || "";
  return (
    <Page title="Audit log">
      <p>Every sign-in, refusal and change in your tenant, newest first. Filter on one action, such as key.created or login.failed.</p>
      <ActionFilter action={action} onApply={(value) => setQuery({ action: value })} />
      <AuditList key={action} action={action} />
    </Page>
  );
}
