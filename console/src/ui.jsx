// The pieces every page is made of: loading, errors in words with the request id, labelled form
// fields, tables, cursor paging, secrets shown once, confirmations, and what a role may do.
import { useCallback, useEffect, useId, useRef, useState } from "preact/hooks";
import { getJson, session } from "./api.js";
import { useSignal } from "./state.js";
import { kSeverities } from "./vocabulary.js";

// ------------------------------------------------------------------ who may do what

// The portal's write calls and the admin pages are for admins (the route tables' kPortalAdmin);
// a user and a viewer read. Pages show no control the API would refuse.
export function useIsAdmin() {
  return useSignal(session)?.user?.role === "admin";
}

export function AdminOnly({ what }) {
  return (
    <p class="notice" role="note">
      Only a tenant admin can see {what}. Your role is <strong>{session.get()?.user?.role}</strong>; ask an admin of your
      tenant if you need this.
    </p>
  );
}

// ------------------------------------------------------------------ page frame

export function Page({ title, children, actions }) {
  const heading = useRef(null);
  useEffect(() => {
    document.title = `${title} · icat console`;
    // Moving to a page puts the keyboard and screen readers at its heading.
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1} ref={heading}>
          {title}
        </h1>
        {actions}
      </header>
      {children}
    </section>
  );
}

// ------------------------------------------------------------------ loading and errors

// Runs load() when deps change; { data, error, loading, reload }.
export function useLoad(load, deps) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true, error: null }));
    load().then(
      (data) => mine === generation.current && setState({ data, error: null, loading: false }),
      (error) => mine === generation.current && setState({ data: null, error, loading: false }),
    );
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

export function ErrorNotice({ error }) {
  if (!error) return null;
  return (
    <div class="error" role="alert">
      <p>
        <strong>{error.message}</strong>
      </p>
      {error.details?.length > 0 && (
        <ul>
          {error.details.map((detail) => (
            <li key={detail.field + detail.issue}>
              <code>{detail.field}</code>: {detail.issue}
            </li>
          ))}
        </ul>
      )}
      <p class="muted">
        {error.error}
        {error.status ? ` (HTTP ${error.status})` : ""}
        {error.requestId && (
          <>
            {" "}
            · request id <code>{error.requestId}</code>
          </>
        )}
      </p>
    </div>
  );
}

export function Loading({ what = "Loading" }) {
  return (
    <p class="muted" role="status">
      {what}…
    </p>
  );
}

// What a loader shows before its data: the spinner line or the error.
export function Pending({ state, what }) {
  if (state.error) return <ErrorNotice error={state.error} />;
  return <Loading what={what} />;
}

// ------------------------------------------------------------------ forms

export function Field({ label, hint, children }) {
  const id = useId();
  const hintId = hint ? id + "-hint" : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, "aria-describedby": hintId })}
      {hint && (
        <small id={hintId} class="muted">
          {hint}
        </small>
      )}
    </div>
  );
}

export function TextField({ label, hint, value, onInput, type = "text", ...rest }) {
  return (
    <Field label={label} hint={hint}>
      {(ids) => <input type={type} value={value} onInput={(event) => onInput(event.currentTarget.value)} {...ids} {...rest} />}
    </Field>
  );
}

export function SelectField({ label, hint, value, onChange, options, ...rest }) {
  return (
    <Field label={label} hint={hint}>
      {(ids) => (
        <select value={value} onChange={(event) => onChange(event.currentTarget.value)} {...ids} {...rest}>
          {options.map(([optionValue, optionLabel]) => (
            <option key={optionValue} value={optionValue}>
              {optionLabel}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

// A group of checkboxes (scopes, events): value is the list of checked keys.
export function Checkboxes({ legend, options, value, onChange }) {
  const toggle = (key, checked) => onChange(checked ? [...value, key] : value.filter((item) => item !== key));
  return (
    <fieldset class="field">
      <legend>{legend}</legend>
      {options.map(([key, label]) => (
        <label key={key} class="check">
          <input type="checkbox" checked={value.includes(key)} onChange={(event) => toggle(key, event.currentTarget.checked)} />{" "}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

// One yes-or-no setting (a webhook's "active", a policy rule): the label names it, the hint says
// what it does.
export function CheckField({ label, hint, checked, onChange }) {
  const hintId = useId();
  return (
    <div class="field">
      <label class="check">
        <input type="checkbox" checked={checked} onChange={(event) => onChange(event.currentTarget.checked)} aria-describedby={hint ? hintId : undefined} />{" "}
        {label}
      </label>
      {hint && (
        <small id={hintId} class="muted">
          {hint}
        </small>
      )}
    </div>
  );
}

// The browser's date-time picker works in local time without a zone; the API takes and answers
// RFC 3339. "" stands for no time on both sides.
export function toLocalInput(rfc3339) {
  const at = new Date(rfc3339 || NaN);
  if (Number.isNaN(at.getTime())) return "";
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function fromLocalInput(text) {
  const at = new Date(text || NaN);
  return Number.isNaN(at.getTime()) ? "" : at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

const kTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

// A moment picked in the person's own time and handed on as RFC 3339 (UTC). A value nobody
// touched goes back exactly as the API gave it (the picker shows minutes only).
export function DateTimeField({ label, hint, value, onChange, ...rest }) {
  return (
    <Field label={label} hint={`${hint ? hint + " " : ""}In your time zone (${kTimeZone}).`}>
      {(ids) => (
        <input type="datetime-local" value={toLocalInput(value)} onInput={(event) => onChange(fromLocalInput(event.currentTarget.value))} {...ids} {...rest} />
      )}
    </Field>
  );
}

// A form whose submit runs an API call, shows its error, and is disabled while it runs.
export function useSubmit(action) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const submit = async (event) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit, setError };
}

// A download fetched on submit (fetchAttachment): the file, and the <a download> link (saveLink)
// that saves it as soon as it arrives and stays for saving it again. The object URL keeps the bytes
// in memory until revoked: when replaced, and when the page goes.
export function useDownload(fetchFile) {
  const [file, setFile] = useState(null);
  const saveLink = useRef(null);
  useEffect(() => () => file && URL.revokeObjectURL(file.url), [file]);
  useEffect(() => saveLink.current?.click(), [file]);
  const { busy, error, submit } = useSubmit(async () => setFile(await fetchFile()));
  return { file, saveLink, busy, error, submit };
}

// ------------------------------------------------------------------ secrets and confirmations

// A secret the API shows once (an API key, a signing secret, a set-up link): a copy button and
// the warning that it will not be shown again; `afterwards` says what becomes of it (a webhook's
// signing secret, say, is kept to sign with, not hashed).
export function SecretOnce({ label, value, afterwards = "the service stores only its hash and cannot show it again.", children }) {
  const id = useId();
  return (
    <div class="secret" role="region" aria-label={label}>
      <label for={id}>{label}</label>
      <div class="secret-row">
        <input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={value} />
      </div>
      <p class="warning">
        <strong>Shown once.</strong> Copy it now and keep it somewhere safe: {afterwards}
      </p>
      {children}
    </div>
  );
}

// Copies text to the clipboard and says so. A browser may refuse (a page that is not a secure
// context, a denied permission): it then says to copy by hand rather than failing silently.
export function CopyButton({ text, what }) {
  const [state, setState] = useState("ready");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("refused");
    }
  };
  const words = { ready: "Copy", copied: "Copied", refused: "Copy refused by the browser: select the text" }[state];
  return (
    <button type="button" onClick={copy} aria-label={what ? `${words}: ${what}` : undefined}>
      {words}
    </button>
  );
}

// A command to paste into a terminal (or a manifest), kept whole on its lines, with a copy button.
// The box scrolls, so it takes the keyboard's focus.
export function CommandBox({ label, text }) {
  return (
    <div class="command-box" role="group" aria-label={label}>
      <pre class="commands" tabIndex={0}>
        <code>{text}</code>
      </pre>
      <CopyButton text={text} what={label} />
    </div>
  );
}

// A button that asks before doing something that cannot be undone.
export function ConfirmButton({ label, question, confirmLabel, onConfirm, class: className = "danger" }) {
  const [asking, setAsking] = useState(false);
  const { busy, error, submit } = useSubmit(async () => {
    await onConfirm();
    setAsking(false);
  });
  if (!asking) {
    return (
      <button type="button" class={className} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span>{question}</span>{" "}
      <button type="button" class="danger" disabled={busy} onClick={submit} autoFocus>
        {confirmLabel || label}
      </button>{" "}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
      <ErrorNotice error={error} />
    </span>
  );
}

// ------------------------------------------------------------------ lists

// Cursor paging for lists: the cursors seen so far, so "Previous" goes back without the API's help.
export function useCursorPages() {
  const [cursors, setCursors] = useState([""]);
  const cursor = cursors[cursors.length - 1];
  return {
    cursor,
    page: cursors.length,
    next: (nextCursor) => setCursors([...cursors, nextCursor]),
    previous: () => setCursors(cursors.slice(0, -1)),
    reset: () => setCursors([""]),
  };
}

// A list the API pages by cursor: the loader's state of the current page (useLoad) with its
// pages (useCursorPages). `query` holds the filters; a list whose filters change is keyed by them
// where it is used, so its paging starts again.
export function usePagedList(path, query = {}) {
  const pages = useCursorPages();
  const list = useLoad(() => getJson(path, { ...query, cursor: pages.cursor }), [path, JSON.stringify(query), pages.cursor]);
  return { ...list, pages };
}

export function Pager({ pages, nextCursor, label = "Pages" }) {
  if (pages.page === 1 && !nextCursor) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={pages.page === 1} onClick={pages.previous}>
        Previous
      </button>
      <span>Page {pages.page}</span>
      <button type="button" disabled={!nextCursor} onClick={() => pages.next(nextCursor)}>
        Next
      </button>
    </nav>
  );
}

// A list's table, the only way the console writes one. Wide tables scroll sideways in their frame
// on a small screen, so the frame takes the keyboard's focus (the scrolling works without a mouse)
// and is a region named by the caption (axe scrollable-region-focusable). The caption names the
// table for screen readers; showCaption shows it to everyone too.
export function Table({ caption, children, class: tableClass, showCaption = false }) {
  return (
    <div class="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table class={tableClass}>
        <caption class={showCaption ? undefined : "visually-hidden"}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Empty({ children }) {
  return <p class="muted empty">{children}</p>;
}

// ------------------------------------------------------------------ formatting

const kDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function When({ at, empty = "never" }) {
  if (!at) return <span class="muted">{empty}</span>;
  return <time dateTime={at}>{kDateTime.format(new Date(at))}</time>;
}

export function formatBytes(bytes) {
  if (bytes === null || bytes === undefined) return "unknown";
  const units = ["B", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

// The words for a key of a [key, words] list (the choices of a select), else the key itself.
export function labelOf(pairs, key) {
  return pairs.find(([candidate]) => candidate === key)?.[1] ?? key;
}

// A finding's package: name, version, kind, and its purl beneath.
// Several packages, one a line (a finding's or a match's packages).
export function PackageLines({ list }) {
  return list.map((pkg, index) => (
    <div key={pkg.purl || index}>
      <Package pkg={pkg} />
    </div>
  ));
}

export function Package({ pkg }) {
  return (
    <>
      {pkg.name} {pkg.version && <span class="mono">{pkg.version}</span>}
      {pkg.type && <span class="tag">{pkg.type}</span>}
      {pkg.purl && <small class="muted block mono">{pkg.purl}</small>}
    </>
  );
}

export function Severity({ level }) {
  return <span class={"severity sev-" + level}>{level}</span>;
}

export function Counts({ counts }) {
  if (!counts) return <span class="muted">not scanned</span>;
  return (
    <span class="counts">
      {kSeverities.map((level) => (
        <span key={level} class={"count sev-" + level} title={level}>
          <span class="visually-hidden">{level} </span>
          {counts[level] ?? 0}
        </span>
      ))}
    </span>
  );
}

// A finding's EPSS (FIRST's probability of exploitation in the next 30 days) as a percentage, with
// its percentile beneath; "none" when the feed has no score for its CVE.
export function Epss({ epss }) {
  if (!epss) return <span class="muted">none</span>;
  return (
    <span title={`EPSS of ${epss.date}`}>
      {(epss.score * 100).toFixed(1)}%<small class="muted block">percentile {Math.round(epss.percentile * 100)}</small>
    </span>
  );
}

// Whether a finding's CVE is in CISA's Known Exploited Vulnerabilities catalogue, since when, and
// whether ransomware campaigns are known to use it.
export function Kev({ kev }) {
  if (!kev) return <span class="muted">no</span>;
  return (
    <span>
      <strong>yes</strong>, since {kev.dateAdded}
      {kev.knownRansomwareCampaignUse === "Known" && <small class="block">used by ransomware</small>}
      <small class="muted block">due {kev.dueDate}</small>
    </span>
  );
}
