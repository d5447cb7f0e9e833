// /webhooks: the tenant's webhook subscriptions (every role reads them) and, for admins, a new one.
// Its signing secret is shown once, in the answer that created it; editing, pinging, deleting and
// the delivery log are on each subscription's page (webhook_detail.jsx).
import { useEffect, useRef, useState } from "preact/hooks";
import { sendJson } from "../api.js";
import { Link } from "../router.jsx";
import {
  CheckField,
  Checkboxes,
  Empty,
  ErrorNotice,
  Page,
  Pager,
  Pending,
  SecretOnce,
  Table,
  TextField,
  When,
  useIsAdmin,
  usePagedList,
  useSubmit,
} from "../ui.jsx";
import { kEvents } from "../vocabulary.js";

const webhookPath = (id) => `/webhooks/${encodeURIComponent(id)}`;

export function WebhookState({ webhook }) {
  if (webhook.active) return <span class="badge good">active</span>;
  return <span class="badge bad">disabled</span>;
}

// The fields of POST and PUT alike; `initial` is the subscription being edited, if any.
export function WebhookForm({ initial, submitLabel, onSubmit }) {
  const [url, setUrl] = useState(initial?.url || "");
  const [events, setEvents] = useState(initial?.events || []);
  const [active, setActive] = useState(initial ? initial.active : true);
  const { busy, error, submit } = useSubmit(() => onSubmit({ url, events, active }));
  return (
    <form onSubmit={submit}>
      <TextField
        label="Receiver URL"
        hint="https, reachable at a public address; at most 2048 characters."
        type="url"
        value={url}
        onInput={setUrl}
        required
        maxLength={2048}
      />
      <Checkboxes legend="Events" options={kEvents} value={events} onChange={setEvents} />
      <CheckField
        label="Active"
        hint="Inactive subscriptions receive nothing. Saving an active subscription clears the reason the dispatcher disabled it for."
        checked={active}
        onChange={setActive}
      />
      <ErrorNotice error={error} />
      <button type="submit" class="primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}

// What POST answered: 201 with the secret for a new subscription, 200 without it when the tenant
// had subscribed that URL already (its events and state replaced, its secret unchanged).
function Created({ webhook }) {
  const frame = useRef(null);
  useEffect(() => frame.current.querySelector("input, a").focus(), []);
  return (
    <div ref={frame}>
      {webhook.secret ? (
        <SecretOnce
          label={`Signing secret for ${webhook.url}`}
          value={webhook.secret}
          afterwards="the service keeps it to sign deliveries, but never shows it again."
        >
          <p>
            Every delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>{" "}
            headers (Standard Webhooks): verify them with this secret before trusting a delivery.{" "}
            <Link href={webhookPath(webhook.id)}>Open the new subscription</Link>.
          </p>
        </SecretOnce>
      ) : (
        <p class="notice" role="status">
          <Link href={webhookPath(webhook.id)}>{webhook.url}</Link> was subscribed already: its events and state are replaced,
          and its signing secret is unchanged (it is not shown again).
        </p>
      )}
    </div>
  );
}

function WebhookList() {
  const list = usePagedList("/api/webhooks");
  const { pages } = list;
  if (!list.data) return <Pending state={list} what="Loading the subscriptions" />;
  const { webhooks, nextCursor } = list.data;
  if (webhooks.length === 0 && pages.page === 1) return <Empty>No webhook subscriptions yet.</Empty>;
  return (
    <>
      <Table caption="Webhook subscriptions, newest first">
        <thead>
          <tr>
            <th scope="col">Receiver URL</th>
            <th scope="col">Events</th>
            <th scope="col">State</th>
            <th scope="col">Created</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {webhooks.map((webhook) => (
            <tr key={webhook.id}>
              <th scope="row">
                <Link href={webhookPath(webhook.id)}>{webhook.url}</Link>
              </th>
              <td>{webhook.events.join(", ")}</td>
              <td>
                <WebhookState webhook={webhook} />
                {webhook.disabledReason && <div class="muted">{webhook.disabledReason}</div>}
              </td>
              <td>
                <When at={webhook.createdAt} />
              </td>
              <td>
                <When at={webhook.updatedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of subscriptions" />
    </>
  );
}

export default function Webhooks() {
  const isAdmin = useIsAdmin();
  const [created, setCreated] = useState(null);
  // After a subscription is made the list starts again at its first page, where it is.
  const [listVersion, setListVersion] = useState(0);
  const [formVersion, setFormVersion] = useState(0);
  const subscribe = async (fields) => {
    const webhook = await sendJson("POST", "/api/webhooks", fields);
    setCreated(webhook);
    setListVersion(listVersion + 1);
    setFormVersion(formVersion + 1);
  };
  return (
    <Page title="Webhooks">
      <p>The service posts events to these URLs, signed with each subscription's secret, and retries until they are taken.</p>
      {created && <Created key={created.id + created.updatedAt} webhook={created} />}
      {isAdmin && (
        <section class="card" aria-labelledby="new-webhook-title">
          <h2 id="new-webhook-title">New subscription</h2>
          <WebhookForm key={formVersion} submitLabel="Subscribe" onSubmit={subscribe} />
        </section>
      )}
      <h2>Subscriptions</h2>
      <WebhookList key={listVersion} />
    </Page>
  );
}
