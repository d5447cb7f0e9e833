// /images: the tenant's licensed catalogue, searched by name (?q=, kept in the address so a reload
// or a shared link keeps the search) and paged by cursor. Each entry of the list carries its
// latest version's severity counts, so a page is one request.
import { useState } from "preact/hooks";
import { getJson } from "../api.js";
import { Link, useQuery } from "../router.jsx";
import { Empty, Page, Pager, Pending, TextField, When, useCursorPages, useLoad, Table } from "../ui.jsx";
import { imagePath } from "../paths.js";

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

function ImageList({ q }) {
  const pages = useCursorPages();
  const state = useLoad(() => getJson("/api/docker-images", { q, cursor: pages.cursor, limit: kPageSize }), [q, pages.cursor]);
  if (!state.data) return <Pending state={state} what="Loading the images" />;
  const { images, nextCursor } = state.data;
  if (images.length === 0) {
    return <Empty>{q ? `No licensed image has “${q}” in its name.` : "Your tenant has no licensed images yet."}</Empty>;
  }
  return (
    <>
      <Table caption={`Licensed images${q ? ` whose name contains “${q}”` : ""}, page ${pages.page}`}>
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
            {images.map((image) => (
              <ImageRow key={image.id} image={image} />
            ))}
          </tbody>
        </Table>
      <Pager pages={pages} nextCursor={nextCursor} label="Pages of images" />
    </>
  );
}

function ImageRow({ image }) {
  const latest = image.latestVersion;
  return (
    <tr>
      <th scope="row">
        <Link href={imagePath(image.id)}>{image.name}</Link>
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
      <LatestScan latest={latest} counts={image.vulnerabilityCounts} />
    </tr>
  );
}

// The latest version's critical and high counts and scan state: three cells.
function LatestScan({ latest, counts }) {
  // An unscanned version's counts are zeros that mean "unknown": they are not shown as numbers.
  if (latest?.scanStatus !== "scanned") {
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
        <Count level="critical" value={counts.critical} />
      </td>
      <td>
        <Count level="high" value={counts.high} />
      </td>
      <td>
        scanned <When at={latest.lastScannedAt} />
      </td>
    </>
  );
}

// A count in its severity's colour when there is something to see, plain when zero.
function Count({ level, value }) {
  return value > 0 ? <span class={"count sev-" + level}>{value}</span> : <span>0</span>;
}
