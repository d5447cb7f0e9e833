// /notifications/:id: one notification channel (admins only, as the API): what it gets and where,
// why the dispatcher disabled it if it did, its editing, enabling again and deletion, and its
// delivery log (the same as a webhook's: webhook_detail.jsx).
import { useState } from "preact/hooks";
import { getAllPages, sendJson } from "../api.js";
import { Link, navigate, useQuery } from "../router.jsx";
import { ConfirmButton, ErrorNotice, Page, Pending, SelectField, When, useLoad, useSubmit } from "../ui.jsx";
import { ChannelForm, ChannelState, Destination } from "./notification_channels.jsx";
import { DeliveryLog, kStateFilter } from "./webhook_detail.jsx";

const channelApi = (id) => `/api/notification-channels/${encodeURIComponent(id)}`;

// The API reads channels only as a list: walk it (a tenant has few) to find this one.
async function findChannel(id) {
  const { items } = await getAllPages("/api/notification-channels", {}, "channels");
  return items.find((channel) => channel.id === id) || null;
}

// The whole channel as PUT takes it, with `changes`; without url, so the stored one stays.
function putBody(channel, changes) {
  const body = { name: channel.name, events: channel.events, minSeverity: channel.minSeverity, imageIds: channel.imageIds, ...changes };
  if (channel.type === "email") Object.assign(body, { addresses: channel.addresses.map((entry) => entry.address), digest: channel.digest }, changes);
  return body;
}

function Facts({ channel }) {
  return (
    <div class="card">
      <dl class="facts">
        <dt>Type</dt>
        <dd>{channel.type}</dd>
        <dt>Sent to</dt>
        <dd>
          <Destination channel={channel} />
        </dd>
        <dt>Events</dt>
        <dd>{channel.events.join(", ") || "none"}</dd>
        {channel.type === "email" && (
          <>
            <dt>Digest</dt>
            <dd>{channel.digest || "none"}</dd>
          </>
        )}
        <dt>Minimum severity</dt>
        <dd>{channel.minSeverity || "any"}</dd>
        <dt>State</dt>
        <dd>
          <ChannelState channel={channel} /> {channel.disabledReason}
        </dd>
        <dt>Created</dt>
        <dd>
          <When at={channel.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <When at={channel.updatedAt} />
        </dd>
      </dl>
    </div>
  );
}

// A disabled channel: the reason, and a button that enables it again (PUT active true clears the
// reason and its count of refusals).
function EnableAgain({ channel, onSaved }) {
  const { busy, error, submit } = useSubmit(async () => {
    await sendJson("PUT", channelApi(channel.id), putBody(channel, { active: true }));
    onSaved();
  });
  return (
    <section class="card" aria-labelledby="enable-title">
      <h2 id="enable-title">Disabled</h2>
      <p>{channel.disabledReason || "This channel is disabled."} Fix the cause at the receiving service, then enable the channel again.</p>
      <button type="button" class="primary" disabled={busy} onClick={submit}>
        Enable again
      </button>
      <ErrorNotice error={error} />
    </section>
  );
}

function Edit({ channel, onSaved }) {
  const [saved, setSaved] = useState(false);
  const save = async (fields) => {
    setSaved(false);
    await sendJson("PUT", channelApi(channel.id), { ...fields, active: channel.active });
    setSaved(true);
    onSaved();
  };
  return (
    <section class="card" aria-labelledby="edit-title">
      <h2 id="edit-title">Edit</h2>
      <ChannelForm key={channel.updatedAt} initial={channel} submitLabel="Save changes" onSubmit={save} />
      {saved && (
        <p class="success" role="status">
          Saved.
        </p>
      )}
      <div class="actions">
        <ConfirmButton
          label="Delete channel"
          question="Delete this channel? It gets nothing more."
          confirmLabel="Yes, delete"
          onConfirm={async () => {
            await sendJson("DELETE", channelApi(channel.id));
            navigate("/notifications");
          }}
        />
      </div>
    </section>
  );
}

export default function NotificationChannelDetail({ params }) {
  const found = useLoad(() => findChannel(params.id), [params.id]);
  const [query, setQuery] = useQuery();
  // A refresh starts the log again at its first page, where the newest delivery is.
  const [logVersion, setLogVersion] = useState(0);
  const back = <Link href="/notifications">All channels</Link>;
  if (!found.data) {
    return (
      <Page title="Notification channel" actions={back}>
        {found.loading || found.error ? <Pending state={found} what="Loading the channel" /> : <p>No channel has this id: it may have been deleted.</p>}
      </Page>
    );
  }
  const channel = found.data;
  return (
    <Page title={`Notification channel ${channel.name}`} actions={back}>
      <Facts channel={channel} />
      {!channel.active && <EnableAgain channel={channel} onSaved={found.reload} />}
      <Edit channel={channel} onSaved={found.reload} />
      <h2>Delivery log</h2>
      <div class="filters">
        <SelectField label="State" value={query.state || ""} onChange={(state) => setQuery({ state })} options={kStateFilter} />
        <button type="button" onClick={() => setLogVersion(logVersion + 1)}>
          Refresh
        </button>
      </div>
      <DeliveryLog
        key={`${query.state || ""}-${logVersion}`}
        path={`${channelApi(channel.id)}/deliveries`}
        state={query.state || ""}
        showAddress={channel.type === "email"}
      />
    </Page>
  );
}
