// /watches: the CVE ids the tenant watches, each with the images whose latest version carries it
// now. A watched id found by a new scan sends the cve_watch.matched webhook event. Admins add and
// remove watches; every other role reads the list and sees no control the API would refuse.
import { useState } from "preact/hooks";
import { sendJson, session } from "../api.js";
import { Link } from "../router.jsx";
import { ConfirmButton, Empty, ErrorNotice, Field, Page, Pager, Pending, TextField, When, useIsAdmin, usePagedList, useSubmit, Table } from "../ui.jsx";
import { imagePath } from "../paths.js";

const kNoteMaxChars = 500;

export default function Watches() {
  const isAdmin = useIsAdmin();
  // A new watch is listed first (newest first): the list starts again at its first page.
  const [generation, setGeneration] = useState(0);
  return (
    <Page title="CVE watches">
      <p>
        A watched id is checked at every new scan of your images; when one carries it, subscribed webhooks get a{" "}
        <code>cve_watch.matched</code> event.
      </p>
      {isAdmin && <NewWatch onCreated={() => setGeneration(generation + 1)} />}
      <h2>Watched ids</h2>
      <WatchList key={generation} isAdmin={isAdmin} />
    </Page>
  );
}

function NewWatch({ onCreated }) {
  const [cveId, setCveId] = useState("");
  const [note, setNote] = useState("");
  const [created, setCreated] = useState("");
  const { busy, error, submit } = useSubmit(async () => {
    setCreated("");
    const watch = await sendJson("POST", "/api/cve-watches", { cveId: cveId.trim(), ...(note.trim() ? { note: note.trim() } : {}) });
    setCreated(watch.cveId);
    setCveId("");
    setNote("");
    onCreated();
  });
  return (
    <>
      <h2>Watch an id</h2>
      <form class="card" onSubmit={submit}>
        <TextField label="CVE or GHSA id" hint="For example CVE-2024-3094 or GHSA-xxxx-xxxx-xxxx" value={cveId} onInput={setCveId} required spellCheck={false} />
        <Field label="Note (optional)" hint={`Why it is watched; up to ${kNoteMaxChars} characters`}>
          {(ids) => <textarea value={note} onInput={(event) => setNote(event.currentTarget.value)} maxLength={kNoteMaxChars} {...ids} />}
        </Field>
        <ErrorNotice error={error} />
        {created && (
          <p class="success" role="status">
            Now watching {created}.
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Watch
        </button>
      </form>
    </>
  );
}

function WatchList({ isAdmin }) {
  const state = usePagedList("/api/cve-watches");
  const { pages } = state;
  if (!state.data) return <Pending state={state} what="Loading the watches" />;
  const { cveWatches, nextCursor } = state.data;
  if (cveWatches.length === 0 && pages.page === 1) return <Empty>No id is watched yet.</Empty>;
  return (
    <>
      {cveWatches.length > 0 ? (
        <WatchTable watches={cveWatches} isAdmin={isAdmin} onDeleted={state.reload} />
      ) : (
        <Empty>No more watches on this page.</Empty>
      )}
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of watches" />
    </>
  );
}

function WatchTable({ watches, isAdmin, onDeleted }) {
  return (
    <Table caption={"Watched CVE ids, newest first"}>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Note</th>
            <th scope="col">Images carrying it now</th>
            <th scope="col">Watched since</th>
            {isAdmin && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {watches.map((watch) => (
            <WatchRow key={watch.id} watch={watch} isAdmin={isAdmin} onDeleted={onDeleted} />
          ))}
        </tbody>
      </Table>
  );
}

function Creator({ id }) {
  if (!id) return <span class="muted">by a removed user</span>;
  if (id === session.get()?.user?.id) return <span>by you</span>;
  return (
    <span>
      by user <code>{id}</code>
    </span>
  );
}

function WatchRow({ watch, isAdmin, onDeleted }) {
  const stopWatching = async () => {
    await sendJson("DELETE", `/api/cve-watches/${encodeURIComponent(watch.id)}`);
    onDeleted();
  };
  return (
    <tr>
      <th scope="row">
        <Link href={`/cve/${encodeURIComponent(watch.cveId)}`}>{watch.cveId}</Link>
      </th>
      <td class="prose">{watch.note || <span class="muted">none</span>}</td>
      <td>
        {watch.images.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          <ul class="plain">
            {watch.images.map((image) => (
              <li key={image.versionId}>
                <Link href={imagePath(image.id, image.versionId)}>
                  {image.name} {image.tag}
                </Link>{" "}
                <span class="muted">in {image.packages.join(", ")}</span>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>
        <When at={watch.createdAt} />
        <br />
        <small>
          <Creator id={watch.createdBy} />
        </small>
      </td>
      {isAdmin && (
        <td>
          <ConfirmButton label={`Stop watching ${watch.cveId}`} question={`Stop watching ${watch.cveId}?`} confirmLabel="Stop watching" onConfirm={stopWatching} />
        </td>
      )}
    </tr>
  );
}
