// /images: the tenant's licensed catalogue, searched by name (?q=, kept in the address so a reload
// or a shared link keeps the search) and paged by cursor. The list endpoint carries no severity
// counts, so each listed image's detail is read too, all of a page's at once.
import { useState } from "preact/hooks";
import { getJson } from "../api.js";
import { Link, useQuery } from "../router.jsx";
import { Empty, ErrorNotice, Page, Pager, Pending, TextField, When, useCursorPages, useLoad } from "../ui.jsx";

const kPageSize = 25;

export default function Images() {
  const [query, setQuery] = useQuery();
  const q = query.q || "";
  // A search is a step back can undo, so it is pushed onto the history.
  const search = (term) => setQuery({ q: term.trim() }, { replace: false });
  return (
    <Page title="Images">
      <SearchForm key={q} q={q} onSearch={search} />
      {/* Keyed by the term: a new search starts again at its first page. */}
      <ImageList key={q} q={q} />
    </Page>
  );
}

function SearchForm({ q, onSearch }) {
  const [term, setTerm] = useState(q);
  const submit = (event) => {
    event.preventDefault();
    onSearch(term);
  };
  return (
    <form role="search" class="row" onSubmit={submit}>
      <TextField label="Image name contains" type="search" value={term} onInput={setTerm} maxLength={200} />
      <button type="submit">Search</button>
      {q && (
        <button type="button" onClick={() => onSearch("")}>
          Show all images
        </button>
      )}
    </form>
  );
}

// A page of images with each one's detail (for its counts). A detail that fails is that row's
// error, not the whole page's.
async function loadImages(q, cursor) {
  const list = await getJson("/api/docker-images", { q, cursor, limit: kPageSize });
  const details = await Promise.allSettled(list.images.map((image) => getJson(`/api/docker-images/${encodeURIComponent(image.id)}`)));
  return {
    nextCursor: list.nextCursor,
    rows: list.images.map((image, index) => ({ image, detail: details[index].value, error: details[index].reason })),
  };
}

function ImageList({ q }) {
  const pages = useCursorPages();
  const state = useLoad(() => loadImages(q, pages.cursor), [q, pages.cursor]);
  if (!state.data) return <Pending state={state} what="Loading the images" />;
  const { rows, nextCursor } = state.data;
  if (rows.length === 0) {
    return <Empty>{q ? `No licensed image has “${q}” in its name.` : "Your tenant has no licensed images yet."}</Empty>;
  }
  return (
    <>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Licensed images{q ? ` whose name contains “${q}”` : ""}, page {pages.page}</caption>
          <thead>
            <tr>
              <th scope="col">Image</th>
              <th scope="col">Description</th>
              <th scope="col">Base OS</th>
              <th scope="col">Latest version</th>
              <th scope="col">Critical</th>
              <th scope="col">High</th>
              <th scope="col">Scan</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <ImageRow key={row.image.id} {...row} />
            ))}
          </tbody>
        </table>
      </div>
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of images" />
    </>
  );
}

function ImageRow({ image, detail, error }) {
  const latest = image.latestVersion;
  return (
    <tr>
      <th scope="row">
        <Link href={`/images/${encodeURIComponent(image.id)}`}>{image.name}</Link>
        <br />
        <code class="muted">{image.repository}</code>
      </th>
      <td>{image.description}</td>
      <td>{image.baseOs || <span class="muted">not stated</span>}</td>
      <td>
        {latest ? (
          <>
            {latest.tag}
            <br />
            <small class="muted">
              published <When at={latest.publishedAt} />
            </small>
          </>
        ) : (
          <span class="muted">no version yet</span>
        )}
      </td>
      {error ? (
        <td colSpan={3}>
          <ErrorNotice error={error} />
        </td>
      ) : (
        <LatestScan detail={detail} />
      )}
    </tr>
  );
}

// The latest version's critical and high counts and scan state: three cells.
function LatestScan({ detail }) {
  // An unscanned version's counts are zeros that mean "unknown": they are not shown as numbers.
  if (detail.scanStatus !== "scanned") {
    return (
      <>
        <td class="muted">unknown</td>
        <td class="muted">unknown</td>
        <td>not scanned</td>
      </>
    );
  }
  return (
    <>
      <td>
        <Count level="critical" value={detail.vulnerabilityCounts.critical} />
      </td>
      <td>
        <Count level="high" value={detail.vulnerabilityCounts.high} />
      </td>
      <td>
        scanned <When at={detail.lastScannedAt} />
      </td>
    </>
  );
}

// A count in its severity's colour when there is something to see, plain when zero.
function Count({ level, value }) {
  return value > 0 ? <span class={"count sev-" + level}>{value}</span> : <span>0</span>;
}
