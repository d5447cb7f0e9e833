// /notifications: the tenant's notification channels (Slack, Teams, e-mail; admins only, as the API)
// and a new one. A channel's URL is a secret: the form takes it and no page ever shows it back, only
// its host. Editing, enabling again and deleting are on each channel's page
// (notification_channel_detail.jsx); docs/notifications.md says what each channel gets.
import { useState } from "preact/hooks";
import { getAllPages, sendJson } from "../api.js";
import { Link } from "../router.jsx";
import {
  Checkboxes,
  Empty,
  ErrorNotice,
  Field,
  Page,
  Pager,
  Pending,
  SelectField,
  Table,
  TextField,
  When,
  labelOf,
  useLoad,
  usePagedList,
  useSubmit,
} from "../ui.jsx";
import { kChannelEvents, kChannelTypes, kDigests, kSeverities } from "../vocabulary.js";

export const channelPath = (id) => `/notifications/${encodeURIComponent(id)}`;

const kMinSeverities = [["", "Any severity"], ...kSeverities.map((severity) => [severity, `${severity} or more severe`])];
const kAddressTone = { pending: "waiting", confirmed: "good", unsubscribed: "quiet" };
const kMaxAddresses = 20;

export function ChannelState({ channel }) {
  if (channel.active) return <span class="badge good">active</span>;
  return <span class="badge bad">disabled</span>;
}

// Where a channel's messages go: the URL's host (never the URL), or each address with its state.
export function Destination({ channel }) {
  if (channel.type !== "email") return <code>{channel.urlHost}</code>;
  return (
    <ul class="plain">
      {channel.addresses.map(({ address, state }) => (
        <li key={address}>
          {address} <span class={"badge " + kAddressTone[state]}>{state}</span>
        </li>
      ))}
    </ul>
  );
}

// The images a channel may name: the tenant's licensed catalogue (few enough to list at once).
function useImages() {
  return useLoad(async () => (await getAllPages("/api/docker-images", {}, "images")).items, []);
}

function ImageNames({ ids, images }) {
  if (ids.length === 0) return "every image";
  return ids.map((id) => images?.find((image) => image.id === id)?.name || id).join(", ");
}

// One address a line (or separated by commas or spaces), as the form's textarea takes them.
const parseAddresses = (text) => text.split(/[\s,;]+/).filter((address) => address !== "");

// The fields of POST and PUT alike; `initial` is the channel being edited, if any, whose type stays.
// A Slack or Teams URL left empty on edit keeps the stored one (the API's PUT without url).
export function ChannelForm({ initial, submitLabel, onSubmit }) {
  const [type, setType] = useState(initial?.type || "slack");
  const [name, setName] = useState(initial?.name || "");
  const [url, setUrl] = useState("");
  const [addresses, setAddresses] = useState((initial?.addresses || []).map((entry) => entry.address).join("\n"));
  const [digest, setDigest] = useState(initial?.digest || "");
  const [events, setEvents] = useState(initial?.events || []);
  const [minSeverity, setMinSeverity] = useState(initial?.minSeverity || "");
  const [imageIds, setImageIds] = useState(initial?.imageIds || []);
  const images = useImages();
  const email = type === "email";
  const { busy, error, submit } = useSubmit(() => {
    const fields = { name, events, minSeverity: minSeverity || null, imageIds };
    if (!initial) fields.type = type;
    if (email) Object.assign(fields, { addresses: parseAddresses(addresses), digest: digest || null });
    else if (url !== "" || !initial) fields.url = url;
    return onSubmit(fields);
  });
  return (
    <form onSubmit={submit}>
      {initial ? (
        <p>
          Type: <strong>{labelOf(kChannelTypes, initial.type)}</strong> (a channel's type cannot change).
        </p>
      ) : (
        <SelectField label="Type" value={type} onChange={setType} options={kChannelTypes} />
      )}
      <TextField label="Name" hint="How this console and the audit log name the channel; at most 100 characters." value={name} onInput={setName} required maxLength={100} />
      {email ? (
        <>
          <Field
            label="Addresses"
            hint={`One a line, at most ${kMaxAddresses}. Each new address gets one mail, to confirm it; nothing else until it is confirmed. Removed addresses get nothing more.`}
          >
            {(ids) => <textarea class="list" rows={4} value={addresses} onInput={(event) => setAddresses(event.currentTarget.value)} required {...ids} />}
          </Field>
          <SelectField label="Digest" value={digest} onChange={setDigest} options={kDigests} />
        </>
      ) : (
        <TextField
          label={initial ? "New incoming webhook URL" : "Incoming webhook URL"}
          hint={
            initial
              ? `Leave empty to keep the stored URL (host ${initial.urlHost}), which is never shown again.`
              : "https, reachable at a public address. A secret: it is stored, never shown again, only its host."
          }
          type="url"
          value={url}
          onInput={setUrl}
          required={!initial}
          maxLength={2048}
          autocomplete="off"
        />
      )}
      <Checkboxes legend={email && digest ? "Events (none needed: a digest channel gets its digest)" : "Events"} options={kChannelEvents} value={events} onChange={setEvents} />
      <SelectField
        label="Minimum severity"
        hint="Events about vulnerabilities reach the channel only when one of them is at least this severe."
        value={minSeverity}
        onChange={setMinSeverity}
        options={kMinSeverities}
      />
      {images.data ? (
        <Checkboxes
          legend="Images (none checked: every image)"
          options={images.data.map((image) => [image.id, image.name])}
          value={imageIds}
          onChange={setImageIds}
        />
      ) : (
        <Pending state={images} what="Loading the images" />
      )}
      <ErrorNotice error={error} />
      <button type="submit" class="primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}

function ChannelList() {
  const list = usePagedList("/api/notification-channels");
  const images = useImages();
  const { pages } = list;
  if (!list.data) return <Pending state={list} what="Loading the channels" />;
  const { channels, nextCursor } = list.data;
  if (channels.length === 0 && pages.page === 1) return <Empty>No notification channels yet.</Empty>;
  return (
    <>
      <Table caption="Notification channels, newest first">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Sent to</th>
            <th scope="col">Events</th>
            <th scope="col">Minimum severity</th>
            <th scope="col">Images</th>
            <th scope="col">State</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {channels.map((channel) => (
            <tr key={channel.id}>
              <th scope="row">
                <Link href={channelPath(channel.id)}>{channel.name}</Link>
              </th>
              <td>{channel.type}</td>
              <td>
                <Destination channel={channel} />
              </td>
              <td>
                {channel.events.join(", ") || <span class="muted">none</span>}
                {channel.digest && <div>{channel.digest} digest</div>}
              </td>
              <td>{channel.minSeverity || <span class="muted">any</span>}</td>
              <td>
                <ImageNames ids={channel.imageIds} images={images.data} />
              </td>
              <td>
                <ChannelState channel={channel} />
                {channel.disabledReason && <div class="muted">{channel.disabledReason}</div>}
              </td>
              <td>
                <When at={channel.updatedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of channels" />
    </>
  );
}

export default function NotificationChannels() {
  const [created, setCreated] = useState(null);
  // After a channel is made the list starts again at its first page, where it is.
  const [version, setVersion] = useState(0);
  const create = async (fields) => {
    setCreated(await sendJson("POST", "/api/notification-channels", fields));
    setVersion(version + 1);
  };
  return (
    <Page title="Notifications">
      <p>Messages for people: a Slack or Microsoft Teams channel, or e-mail, for the events each channel chooses.</p>
      {created && (
        <p class="success" role="status">
          Channel <Link href={channelPath(created.id)}>{created.name}</Link> created.
          {created.type === "email" && " Each address gets a mail to confirm it first."}
        </p>
      )}
      <section class="card" aria-labelledby="new-channel-title">
        <h2 id="new-channel-title">New channel</h2>
        <ChannelForm key={version} submitLabel="Create channel" onSubmit={create} />
      </section>
      <h2>Channels</h2>
      <ChannelList key={version} />
    </Page>
  );
}
