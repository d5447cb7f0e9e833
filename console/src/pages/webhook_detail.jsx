// /webhooks/:id: one subscription and its delivery log (every role), and for admins its editing,
// a ping and its deletion. The log refreshes itself while a delivery in view is pending, so a ping's
// outcome shows up without a reload.
import { useEffect, useState } from "preact/hooks";
import { getAllPages, sendJson } from "../api.js";
import { Link, navigate, useQuery } from "../router.jsx";
import {
  ConfirmButton,
  Empty,
  ErrorNotice,
  Page,
  Pager,
  Pending,
  SelectField,
  Table,
  When,
  useIsAdmin,
  useLoad,
  usePagedList,
  useSubmit,
} from "../ui.jsx";
import { WebhookForm, WebhookState } from "./webhooks.jsx";

const kRefreshPendingMs = 1500;
const kStateTone = { pending: "waiting", succeeded: "good", failed: "bad" };
export const kStateFilter = [
  ["", "Every state"],
  ["pending", "Pending: not sent yet, or to be retried"],
  ["succeeded", "Succeeded"],
  ["failed", "Failed: retries spent, or refused"],
];

// The API reads subscriptions only as a list: walk it (a tenant has few) to find this one.
async function findWebhook(id) {
  const { items } = await getAllPages("/api/webhooks", {}, "webhooks");
  return items.find((webhook) => webhook.id === id) || null;
}

function Facts({ webhook }) {
  return (
    <div class="card">
      <dl class="facts">
        <dt>Receiver URL</dt>
        <dd>
          <code>{webhook.url}</code>
        </dd>
        <dt>Events</dt>
        <dd>{webhook.events.join(", ")}</dd>
        <dt>State</dt>
        <dd>
          <WebhookState webhook={webhook} /> {webhook.disabledReason}
        </dd>
        <dt>Created</dt>
        <dd>
          <When at={webhook.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <When at={webhook.updatedAt} />
        </dd>
      </dl>
    </div>
  );
}

function Edit({ webhook, onSaved }) {
  const [saved, setSaved] = useState(false);
  const save = async (fields) => {
    setSaved(false);
    await sendJson("PUT", `/api/webhooks/${encodeURIComponent(webhook.id)}`, fields);
    setSaved(true);
    onSaved();
  };
  return (
    <section class="card" aria-labelledby="edit-title">
      <h2 id="edit-title">Edit</h2>
      {/* Refilled from each saved version: the API normalises the URL. */}
      <WebhookForm key={webhook.updatedAt} initial={webhook} submitLabel="Save changes" onSubmit={save} />
      {saved && (
        <p class="success" role="status">
          Saved.
        </p>
      )}
      <div class="actions">
        <ConfirmButton
          label="Delete subscription"
          question="Delete this subscription and its delivery log? Its receiver gets nothing more."
          confirmLabel="Yes, delete"
          onConfirm={async () => {
            await sendJson("DELETE", `/api/webhooks/${encodeURIComponent(webhook.id)}`);
            navigate("/webhooks");
          }}
        />
      </div>
    </section>
  );
}

// A ping event to this subscription alone; the answer names the event to look for in the log.
function Ping({ webhook, onSent }) {
  const [sent, setSent] = useState(null);
  const { busy, error, submit } = useSubmit(async () => {
    setSent(await sendJson("POST", `/api/webhooks/${encodeURIComponent(webhook.id)}/ping`));
    onSent();
  });
  return (
    <section class="card" aria-labelledby="ping-title">
      <h2 id="ping-title">Ping</h2>
      <p>Sends a signed <code>ping</code> event to this URL now, whatever events the subscription chose.</p>
      <button type="button" disabled={busy} onClick={submit}>
        Send a ping
      </button>
      <ErrorNotice error={error} />
      {sent && (
        <p role="status">
          Ping queued as event <code>{sent.eventId}</code>: its delivery is in the log below.
        </p>
      )}
    </section>
  );
}

function DeliveryRow({ delivery, showAddress }) {
  return (
    <tr>
      <th scope="row">
        {delivery.eventType}
        <div class="muted">
          <code>{delivery.eventId}</code>
        </div>
      </th>
      {showAddress && <td>{delivery.address}</td>}
      <td>
        <span class={"badge " + kStateTone[delivery.state]}>{delivery.state}</span>
      </td>
      <td>{delivery.attempts}</td>
      <td>{delivery.lastStatus ?? <span class="muted">none</span>}</td>
      <td>{delivery.lastError ?? <span class="muted">none</span>}</td>
      <td>
        <When at={delivery.nextAttemptAt} empty="none" />
      </td>
      <td>
        <When at={delivery.createdAt} />
      </td>
      <td>
        <When at={delivery.updatedAt} />
      </td>
    </tr>
  );
}

// A delivery log (`path`: a webhook's or a notification channel's), newest first; showAddress: an
// e-mail channel's, whose each delivery goes to one of its addresses.
export function DeliveryLog({ path, state, showAddress = false }) {
  const log = usePagedList(path, { state });
  const { pages } = log;
  const pending = log.data?.deliveries.some((delivery) => delivery.state === "pending");
  useEffect(() => {
    if (!pending || log.loading) return undefined;
    const timer = setTimeout(log.reload, kRefreshPendingMs);
    return () => clearTimeout(timer);
  }, [pending, log.loading, log.data]);
  if (!log.data) return <Pending state={log} what="Loading the delivery log" />;
  const { deliveries, nextCursor } = log.data;
  return (
    <>
      {deliveries.length === 0 && pages.page === 1 ? (
        <Empty>No deliveries{state ? ` in state ${state}` : ""}.</Empty>
      ) : (
        <Table caption="Deliveries, newest first">
          <thead>
            <tr>
              <th scope="col">Event</th>
              {showAddress && <th scope="col">Sent to</th>}
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last status</th>
              <th scope="col">Last error</th>
              <th scope="col">Next attempt</th>
              <th scope="col">Created</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} showAddress={showAddress} />
            ))}
          </tbody>
        </Table>
      )}
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of deliveries" />
    </>
  );
}

export default function WebhookDetail({ params }) {
  const isAdmin = useIsAdmin();
  const [query, setQuery] = useQuery();
  const hook = useLoad(() => findWebhook(params.id), [params.id]);
  // A ping or a refresh starts the log again at its first page, where the newest delivery is.
  const [logVersion, setLogVersion] = useState(0);
  const restartLog = () => setLogVersion(logVersion + 1);
  const back = <Link href="/webhooks">All subscriptions</Link>;
  if (!hook.data) {
    return (
      <Page title="Webhook subscription" actions={back}>
        {hook.loading || hook.error ? <Pending state={hook} what="Loading the subscription" /> : <p>No subscription has this id: it may have been deleted.</p>}
      </Page>
    );
  }
  const webhook = hook.data;
  return (
    <Page title="Webhook subscription" actions={back}>
      <Facts webhook={webhook} />
      {isAdmin && <Edit webhook={webhook} onSaved={hook.reload} />}
      {isAdmin && webhook.active && <Ping webhook={webhook} onSent={restartLog} />}
      {isAdmin && !webhook.active && <p class="notice">Ping needs an active subscription: make it active above first.</p>}
      <h2>Delivery log</h2>
      <div class="filters">
        <SelectField label="State" value={query.state || ""} onChange={(state) => setQuery({ state })} options={kStateFilter} />
        <button type="button" onClick={restartLog}>
          Refresh
        </button>
      </div>
      <DeliveryLog
        key={`${query.state || ""}-${logVersion}`}
        path={`/api/webhooks/${encodeURIComponent(webhook.id)}/deliveries`}
        state={query.state || ""}
      />
    </Page>
  );
}
