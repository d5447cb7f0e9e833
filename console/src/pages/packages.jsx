// /packages?purl=|name=[&type=][&versionRange=][&versions=all]: which of the tenant's licensed images carry a
// package, from their latest scans' SBOMs (docs/compare.md, the package look-up): the first
// question of an incident. One field takes a package URL (a purl; with a version, that version only)
// or a package's name (with an optional purl type and version range); the form goes to the address, so a result can
// be bookmarked and shared. The switch widens the look-up from each image's latest version to every
// version. What the API refuses (a malformed purl or range, a type beside a purl) is shown in its words.
import { useState } from "preact/hooks";
import { Link, useQuery } from "../router.jsx";
import { CheckField, Empty, PackageLines, Page, Pager, Pending, TextField, When, usePagedList, Table } from "../ui.jsx";
import { imagePath } from "../paths.js";

const kPageSize = 50;

export default function Packages() {
  const [query, setQuery] = useQuery();
  const lookUp = {
    purl: query.purl || "",
    name: query.name || "",
    type: query.type || "",
    versionRange: query.versionRange || "",
    versions: query.versions === "all" ? "all" : "",
  };
  const asked = lookUp.purl || lookUp.name;
  // A look-up is a step back can undo, so it is pushed onto the history.
  const submit = (next) => setQuery(next, { replace: false });
  return (
    <Page title="Package look-up">
      <LookUpForm key={JSON.stringify(lookUp)} lookUp={lookUp} onSubmit={submit} />
      {/* Keyed by the look-up: a new one starts again at its first page. */}
      {asked && <LookUpResult key={JSON.stringify(lookUp)} lookUp={lookUp} />}
    </Page>
  );
}

function LookUpForm({ lookUp, onSubmit }) {
  const [text, setText] = useState(lookUp.purl || lookUp.name);
  const [type, setType] = useState(lookUp.type);
  const [range, setRange] = useState(lookUp.versionRange);
  const [every, setEvery] = useState(lookUp.versions === "all");
  const submit = (event) => {
    event.preventDefault();
    const package_ = text.trim();
    const isPurl = package_.startsWith("pkg:");
    const choice = { purl: isPurl ? package_ : "", name: isPurl ? "" : package_, type: type.trim(), versionRange: range.trim() };
    onSubmit({ ...choice, versions: every ? "all" : "" });
  };
  return (
    <form role="search" onSubmit={submit}>
      <div class="row">
        <TextField
          label="Package URL or name"
          hint="A purl such as pkg:deb/debian/openssl (any version) or pkg:deb/debian/openssl@3.0.15-1~deb12u1 (that version), or a name as the SBOM gives it, such as openssl"
          value={text}
          onInput={setText}
          required
          spellCheck={false}
        />
        <TextField label="Type (with a name)" hint="The purl type, such as deb, apk, npm or maven; empty: any" value={type} onInput={setType} spellCheck={false} />
        <TextField
          label="Version range (with a name)"
          hint="Bounds that must all hold, such as >=2.0.0,<2.17.1 (each >=, >, <=, < or = and a version); empty: any"
          value={range}
          onInput={setRange}
          spellCheck={false}
        />
      </div>
      <CheckField label="Every version" hint="Look in every version of each image, not only the latest." checked={every} onChange={setEvery} />
      <button type="submit" class="primary">
        Look up
      </button>
    </form>
  );
}

function LookUpResult({ lookUp }) {
  const list = usePagedList("/api/packages", { ...lookUp, limit: kPageSize });
  if (!list.data) return <Pending state={list} what="Looking up the package" />;
  const { matches, nextCursor } = list.data;
  const asked = lookUp.purl || [lookUp.name, lookUp.type && `(${lookUp.type})`, lookUp.versionRange].filter(Boolean).join(" ");
  const where = lookUp.versions === "all" ? "versions" : "latest versions";
  return (
    <>
      <h2>Images carrying it</h2>
      <p role="status">
        {matches.length === 0 && list.pages.page === 1
          ? `No ${where} of your licensed images carry ${asked}.`
          : `${matches.length} ${where}${list.pages.page > 1 || nextCursor ? ` on page ${list.pages.page}` : ""} carry ${asked}.`}
      </p>
      {matches.length > 0 && (
        <Table caption={`Images and versions carrying ${asked}, page ${list.pages.page}`} class="package-matches">
          <thead>
            <tr>
              <th scope="col">Image</th>
              <th scope="col">Version</th>
              <th scope="col">Scanned</th>
              <th scope="col">Packages</th>
            </tr>
          </thead>
          <tbody>
            {matches.map((match) => (
              <tr key={match.version.id}>
                <th scope="row">
                  <Link href={imagePath(match.image.id)}>{match.image.name}</Link>
                  <small class="muted block mono">{match.image.repository}</small>
                </th>
                <td>
                  <Link href={imagePath(match.image.id, match.version.id)}>{match.version.tag}</Link>
                  {match.version.latest && <span class="tag">latest</span>}
                  <small class="muted block mono">{match.version.digest}</small>
                </td>
                <td>
                  <When at={match.scan.scannedAt} />
                </td>
                <td>
                  <PackageLines list={match.packages} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {matches.length === 0 && list.pages.page > 1 && <Empty>No more.</Empty>}
      <Pager pages={list.pages} nextCursor={nextCursor} label="Pages of matches" />
    </>
  );
}
