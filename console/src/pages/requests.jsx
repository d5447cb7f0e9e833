// /requests: the tenant's feature requests, package requests and bug reports, newest first,
// filtered by status and type (kept in the address: ?status=&type=). The vendor moves a request
// through open, planned, done or declined. Filing one is for admins (the route table's
// kPortalAdmin); every other role reads the list and sees no form.
import { useState } from "preact/hooks";
import { getAllPages, sendJson } from "../api.js";
import { Link, useQuery } from "../router.jsx";
import { Empty, ErrorNotice, Field, Page, Pager, Pending, SelectField, TextField, When, labelOf, useIsAdmin, useLoad, usePagedList, useSubmit } from "../ui.jsx";
import { imagePath } from "../paths.js";

const kTypes = [
  ["feature", "Feature request"],
  ["package", "Package request"],
  ["bug", "Bug report"],
];
const kStatuses = [
  ["open", "Open"],
  ["planned", "Planned"],
  ["done", "Done"],
  ["declined", "Declined"],
];

export default function Requests() {
  const isAdmin = useIsAdmin();
  const [query, setQuery] = useQuery();
  const status = kStatuses.some(([key]) => key === query.status) ? query.status : "";
  const type = kTypes.some(([key]) => key === query.type) ? query.type : "";
  // A new request is listed first (newest first): the list starts again at its first page.
  const [generation, setGeneration] = useState(0);
  return (
    <Page title="Requests">
      <p>Ask the vendor for a feature or an image package, or report a bug; the vendor sets each request's status.</p>
      {isAdmin && <NewRequest onFiled={() => setGeneration(generation + 1)} />}
      <h2>Your tenant's requests</h2>
      <div class="row filters">
        <SelectField label="Status" value={status} onChange={(value) => setQuery({ status: value })} options={[["", "Any status"], ...kStatuses]} />
        <SelectField label="Type" value={type} onChange={(value) => setQuery({ type: value })} options={[["", "Any type"], ...kTypes]} />
      </div>
      {/* Keyed by the filters: a new filter starts again at its first page. */}
      <RequestList key={`${status} ${type} ${generation}`} status={status} type={type} />
    </Page>
  );
}

function NewRequest({ onFiled }) {
  const [type, setType] = useState("feature");
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [imageId, setImageId] = useState("");
  const [cveId, setCveId] = useState("");
  const [packageName, setPackageName] = useState("");
  const [filed, setFiled] = useState("");
  const images = useLoad(() => getAllPages("/api/docker-images", {}, "images"), []);
  const { busy, error, submit } = useSubmit(async () => {
    setFiled("");
    // Optional fields left empty are left out: the API checks what is sent.
    const optional = { imageId, cveId: cveId.trim(), packageName: type === "package" ? packageName.trim() : "" };
    const body = { type, title: title.trim(), description: description.trim() };
    for (const [name, value] of Object.entries(optional)) if (value) body[name] = value;
    const request = await sendJson("POST", "/api/feature-requests", body);
    setFiled(request.title);
    setTitle("");
    setDescription("");
    setImageId("");
    setCveId("");
    setPackageName("");
    onFiled();
  });
  const imageOptions = [["", "None"], ...(images.data?.items || []).map((image) => [image.id, image.name])];
  return (
    <>
      <h2>New request</h2>
      <form class="card" onSubmit={submit}>
        <div class="row">
          <SelectField label="Request type" value={type} onChange={setType} options={kTypes} />
          <SelectField label="Image (optional)" value={imageId} onChange={setImageId} options={imageOptions} />
        </div>
        <ErrorNotice error={images.error} />
        <TextField label="Title" value={title} onInput={setTitle} required maxLength={200} />
        <Field label="Description" hint="Up to 10,000 characters">
          {(ids) => <textarea value={description} onInput={(event) => setDescription(event.currentTarget.value)} required maxLength={10000} {...ids} />}
        </Field>
        <div class="row">
          {type === "package" && <TextField label="Package name" value={packageName} onInput={setPackageName} required maxLength={200} />}
          <TextField label="CVE or GHSA id (optional)" value={cveId} onInput={setCveId} spellCheck={false} />
        </div>
        <ErrorNotice error={error} />
        {filed && (
          <p class="success" role="status">
            Filed “{filed}”; its status is open.
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          File the request
        </button>
      </form>
    </>
  );
}

function RequestList({ status, type }) {
  const state = usePagedList("/api/feature-requests", { status, type });
  const { pages } = state;
  if (!state.data) return <Pending state={state} what="Loading the requests" />;
  const { featureRequests, nextCursor } = state.data;
  return (
    <>
      {featureRequests.length === 0 ? (
        <Empty>{status || type ? "No request matches these filters." : "No request has been filed yet."}</Empty>
      ) : (
        <ul class="plain">
          {featureRequests.map((request) => (
            <li key={request.id}>
              <RequestCard request={request} />
            </li>
          ))}
        </ul>
      )}
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of requests" />
    </>
  );
}

function RequestCard({ request }) {
  return (
    <article class="card" aria-labelledby={"request-" + request.id}>
      <h3 id={"request-" + request.id}>{request.title}</h3>
      <dl class="facts">
        <dt>Type</dt>
        <dd>{labelOf(kTypes, request.type)}</dd>
        <dt>Status</dt>
        <dd>
          <span class={"status status-" + request.status}>{labelOf(kStatuses, request.status)}</span>
        </dd>
        {request.imageId && (
          <>
            <dt>Image</dt>
            <dd>
              <Link href={imagePath(request.imageId)}>{request.imageName || request.imageId}</Link>
            </dd>
          </>
        )}
        {request.packageName && (
          <>
            <dt>Package</dt>
            <dd>{request.packageName}</dd>
          </>
        )}
        {request.cveId && (
          <>
            <dt>Vulnerability</dt>
            <dd>
              <Link href={`/cve/${encodeURIComponent(request.cveId)}`}>{request.cveId}</Link>
            </dd>
          </>
        )}
        <dt>Filed</dt>
        <dd>
          <When at={request.createdAt} /> by {request.createdBy?.email || <span class="muted">a removed user</span>}
        </dd>
        <dt>Last change</dt>
        <dd>
          <When at={request.updatedAt} />
        </dd>
      </dl>
      <p class="prose">{request.description}</p>
    </article>
  );
}
