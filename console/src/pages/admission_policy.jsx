// /admission: the tenant's admission policy, every field of it (docs/admission.md, AdmissionPolicy
// in the portal's OpenAPI). Admins edit it as a form and save the whole document with PUT; the API
// checks every field and its answer's details are shown by the save button. Everyone else reads
// the same fields, with no control to change them.
import { Fragment } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { getJson, sendJson } from "../api.js";
import { Link } from "../router.jsx";
import {
  CheckField,
  DateTimeField,
  ErrorNotice,
  Field,
  Page,
  Pending,
  SelectField,
  Table,
  TextField,
  When,
  labelOf,
  useIsAdmin,
  useLoad,
  useSubmit,
} from "../ui.jsx";
import { kThresholds } from "../vocabulary.js";

const kModes = [
  ["enforce", "Enforce: deny images that break a rule"],
  ["warn", "Warn: allow them, with a warning for each broken rule"],
  ["audit", "Audit: allow them and only record the decision"],
];

// The policy's yes-or-no fields: label and what it does.
const kSwitches = {
  requireCatalogImages: ["Only images of the licensed catalogue", "Every image must resolve to a version of the catalogue licensed to you."],
  requireScan: ["Only scanned versions", "A catalogue version that was never scanned is denied: its vulnerabilities are unknown, not none."],
  requireDigest: ["Only references pinned by digest", "Every image reference must carry an @sha256:… digest; a denial names the one to write."],
  requireCatalogRegistry: ["Only images from this service's registry", "Every image must be pulled from the registry that serves your licensed images; Docker Hub and every other registry or mirror are denied."],
  onlyFixable: ["Count only fixable vulnerabilities", "A vulnerability counts only at the highest severity among its findings that have a fix."],
  denyWatchedCves: ["Deny watched CVEs", "Deny images carrying a CVE of your watch list, whatever its severity; no grace period applies."],
  denyKnownExploited: ["Deny known exploited vulnerabilities", "Deny images carrying a vulnerability (by its id or a CVE alias) in CISA's Known Exploited Vulnerabilities catalogue, whatever its severity."],
  trustVendorVex: ["Trust the vendor's VEX", "A CVE the image vendor's VEX statement marks not_affected for that version counts toward no rule."],
};

// The policy's lists, edited one entry per line (at most 100 entries each).
const kLists = {
  allowedRegistries: ["Allowed registries", "Registry prefixes: host, optional :port and path, matched at / boundaries. Empty: any registry."],
  exemptNamespaces: ["Exempt namespaces", "Kubernetes namespaces whose pods are not judged at all."],
  exemptImages: ["Exempt images", "Glob patterns on the normalised reference (* matches anything, ? one character); a match is not judged."],
};

// What an exception lifts: one CVE, or one rule that has no CVE behind it.
const kLifts = [
  ["cveId", "A CVE or GHSA id"],
  ["requireScan", "The rule requireScan"],
];

const kMaxGraceDays = 365;
const kMaxEpssLabel = "Highest EPSS score allowed";
const kMaxJustificationChars = 1000;
const kEveryImage = "";

const isExpired = (exception) => Boolean(exception.expiresAt) && new Date(exception.expiresAt) <= new Date();

// ------------------------------------------------------------------ the document and the form

let exceptionRows = 0;

function exceptionRow(exception = {}) {
  return {
    row: ++exceptionRows,
    lifts: exception.rule || "cveId",
    cveId: exception.cveId || "",
    imageId: exception.imageId || kEveryImage,
    justification: exception.justification || "",
    expiresAt: exception.expiresAt || "",
  };
}

function toForm(policy) {
  return {
    mode: policy.mode,
    requireCatalogImages: policy.requireCatalogImages,
    requireScan: policy.requireScan,
    requireDigest: policy.requireDigest,
    requireCatalogRegistry: policy.requireCatalogRegistry,
    allowedRegistries: policy.allowedRegistries.join("\n"),
    exemptNamespaces: policy.exemptNamespaces.join("\n"),
    exemptImages: policy.exemptImages.join("\n"),
    severityThreshold: policy.severityThreshold ?? "",
    onlyFixable: policy.onlyFixable,
    gracePeriodDays: String(policy.gracePeriodDays),
    denyWatchedCves: policy.denyWatchedCves,
    denyKnownExploited: policy.denyKnownExploited,
    maxEpss: policy.maxEpss === null ? "" : String(policy.maxEpss),
    trustVendorVex: policy.trustVendorVex,
    exceptions: policy.exceptions.map(exceptionRow),
  };
}

const lines = (text) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

// The whole document PUT replaces; only the schema's fields (it allows no others).
function toPolicy(form) {
  return {
    mode: form.mode,
    requireCatalogImages: form.requireCatalogImages,
    requireScan: form.requireScan,
    requireDigest: form.requireDigest,
    requireCatalogRegistry: form.requireCatalogRegistry,
    allowedRegistries: lines(form.allowedRegistries),
    exemptNamespaces: lines(form.exemptNamespaces),
    exemptImages: lines(form.exemptImages),
    severityThreshold: form.severityThreshold || null,
    onlyFixable: form.onlyFixable,
    gracePeriodDays: Number(form.gracePeriodDays),
    denyWatchedCves: form.denyWatchedCves,
    denyKnownExploited: form.denyKnownExploited,
    maxEpss: form.maxEpss.trim() === "" ? null : Number(form.maxEpss),
    trustVendorVex: form.trustVendorVex,
    exceptions: form.exceptions.map((row) => ({
      ...(row.lifts === "cveId" ? { cveId: row.cveId } : { rule: row.lifts }),
      imageId: row.imageId || null,
      justification: row.justification,
      expiresAt: row.expiresAt,
    })),
  };
}

// ------------------------------------------------------------------ shared by form and view

function Section({ title, children }) {
  const id = useId();
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

// The catalogue's images by id, for naming an exception's image; an image no longer listed keeps
// its id.
function imageName(images, id) {
  if (!id) return "Every image";
  return images.find((image) => image.id === id)?.name ?? `image ${id}`;
}

// ------------------------------------------------------------------ read-only (not an admin)

function ListValue({ items, empty }) {
  if (items.length === 0) return <span class="muted">{empty}</span>;
  return (
    <ul class="plain">
      {items.map((item) => (
        <li key={item}>
          <code>{item}</code>
        </li>
      ))}
    </ul>
  );
}

const yesNo = (value) => (value ? "Yes" : "No");

function PolicyView({ policy, images }) {
  return (
    <>
      <p class="notice" role="note">
        Only a tenant admin can change the admission policy.
      </p>
      <Section title="When an image breaks a rule">
        <dl class="facts">
          <dt>Mode</dt>
          <dd>{labelOf(kModes, policy.mode)}</dd>
        </dl>
      </Section>
      <Section title="Which images may run">
        <dl class="facts">
          {["requireCatalogImages", "requireScan", "requireDigest", "requireCatalogRegistry"].map((name) => (
            <Fragment key={name}>
              <dt>{kSwitches[name][0]}</dt>
              <dd>{yesNo(policy[name])}</dd>
            </Fragment>
          ))}
          <dt>{kLists.allowedRegistries[0]}</dt>
          <dd>
            <ListValue items={policy.allowedRegistries} empty="Any registry" />
          </dd>
        </dl>
      </Section>
      <Section title="Vulnerabilities">
        <dl class="facts">
          <dt>Deny vulnerabilities at or above</dt>
          <dd>{labelOf(kThresholds, policy.severityThreshold ?? "")}</dd>
          <dt>{kSwitches.onlyFixable[0]}</dt>
          <dd>{yesNo(policy.onlyFixable)}</dd>
          <dt>Grace period</dt>
          <dd>{policy.gracePeriodDays} days</dd>
          <dt>{kSwitches.denyWatchedCves[0]}</dt>
          <dd>{yesNo(policy.denyWatchedCves)}</dd>
          <dt>{kSwitches.denyKnownExploited[0]}</dt>
          <dd>{yesNo(policy.denyKnownExploited)}</dd>
          <dt>{kMaxEpssLabel}</dt>
          <dd>{policy.maxEpss === null ? "No limit" : policy.maxEpss}</dd>
          <dt>{kSwitches.trustVendorVex[0]}</dt>
          <dd>{yesNo(policy.trustVendorVex)}</dd>
        </dl>
      </Section>
      <Section title="Exemptions">
        <dl class="facts">
          <dt>{kLists.exemptNamespaces[0]}</dt>
          <dd>
            <ListValue items={policy.exemptNamespaces} empty="None" />
          </dd>
          <dt>{kLists.exemptImages[0]}</dt>
          <dd>
            <ListValue items={policy.exemptImages} empty="None" />
          </dd>
        </dl>
      </Section>
      <Section title="Exceptions">
        {policy.exceptions.length === 0 ? (
          <p class="muted">None.</p>
        ) : (
          <Table caption="Policy exceptions">
            <thead>
              <tr>
                <th scope="col">Lifts</th>
                <th scope="col">Image</th>
                <th scope="col">Justification</th>
                <th scope="col">Expires</th>
              </tr>
            </thead>
            <tbody>
              {policy.exceptions.map((exception, index) => (
                <tr key={index}>
                  <th scope="row">
                    <code>{exception.cveId || exception.rule}</code>
                  </th>
                  <td>{imageName(images, exception.imageId)}</td>
                  <td>{exception.justification}</td>
                  <td>
                    <When at={exception.expiresAt} /> {isExpired(exception) && <span class="badge quiet">expired</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
    </>
  );
}

// ------------------------------------------------------------------ the form (admins)

function ListField({ name, value, onInput }) {
  const [title, hint] = kLists[name];
  return (
    <Field label={title} hint={`${hint} One per line, at most 100.`}>
      {(ids) => <textarea class="list" value={value} onInput={(event) => onInput(event.currentTarget.value)} spellcheck={false} {...ids} />}
    </Field>
  );
}

function Switch({ name, form, change }) {
  const [title, hint] = kSwitches[name];
  return <CheckField label={title} hint={hint} checked={form[name]} onChange={(checked) => change({ [name]: checked })} />;
}

function ExceptionFields({ row, number, imageOptions, onChange, onRemove }) {
  const set = (field) => (value) => onChange({ ...row, [field]: value });
  return (
    <fieldset class="exception">
      <legend>
        Exception {number} {isExpired(row) && <span class="badge quiet">expired</span>}
      </legend>
      <div class="row">
        <SelectField label="Lifts" value={row.lifts} options={kLifts} onChange={set("lifts")} />
        {row.lifts === "cveId" && <TextField label="CVE or GHSA id" hint="CVE-2024-3094 or GHSA-xxxx-xxxx-xxxx" value={row.cveId} onInput={set("cveId")} required maxLength={40} />}
        <SelectField label="Image" value={row.imageId} options={imageOptions(row.imageId)} onChange={set("imageId")} />
      </div>
      <TextField label="Justification" hint="Why the risk is accepted, for whoever reads the policy next." value={row.justification} onInput={set("justification")} required maxLength={kMaxJustificationChars} />
      <DateTimeField label="Expires" hint="After this the exception lifts nothing; it may stay as history." value={row.expiresAt} onChange={set("expiresAt")} required />
      <button type="button" onClick={onRemove}>
        Remove exception {number}
      </button>
    </fieldset>
  );
}

function Exceptions({ rows, images, onChange }) {
  const list = useRef(null);
  const addButton = useRef(null);
  // After adding, the new exception's first control takes the focus; after removing, the add
  // button (a new object each time, so that every click asks again).
  const [focusRequest, setFocusRequest] = useState(null);
  useEffect(() => {
    if (focusRequest?.to === "new") list.current.lastElementChild?.querySelector("select, input")?.focus();
    if (focusRequest?.to === "add") addButton.current.focus();
  }, [focusRequest]);
  const imageOptions = (selected) => {
    const options = [[kEveryImage, "Every image"], ...images.map((image) => [image.id, image.name])];
    return selected && !images.some((image) => image.id === selected) ? [...options, [selected, imageName(images, selected)]] : options;
  };
  return (
    <Section title="Exceptions">
      <p class="muted">
        An exception in force lifts one CVE (and its aliases) from the severity and watched-CVE rules, or lifts the rule requireScan,
        for every image or one image, until it expires. At most 500.
      </p>
      <div ref={list}>
        {rows.map((row, index) => (
          <ExceptionFields
            key={row.row}
            row={row}
            number={index + 1}
            imageOptions={imageOptions}
            onChange={(changed) => onChange(rows.map((other) => (other.row === row.row ? changed : other)))}
            onRemove={() => {
              onChange(rows.filter((other) => other.row !== row.row));
              setFocusRequest({ to: "add" });
            }}
          />
        ))}
      </div>
      <button
        type="button"
        ref={addButton}
        onClick={() => {
          onChange([...rows, exceptionRow()]);
          setFocusRequest({ to: "new" });
        }}
      >
        Add an exception
      </button>
    </Section>
  );
}

function PolicyForm({ policy, images }) {
  const [stored, setStored] = useState(policy);
  const [form, setForm] = useState(() => toForm(policy));
  const [saved, setSaved] = useState(false);
  const change = (fields) => {
    setForm({ ...form, ...fields });
    setSaved(false);
  };
  const { busy, error, submit, setError } = useSubmit(async () => {
    const answer = await sendJson("PUT", "/api/admission-policy", toPolicy(form));
    setStored(answer);
    setForm(toForm(answer));
    setSaved(true);
  });
  const discard = () => {
    setForm(toForm(stored));
    setError(null);
    setSaved(false);
  };
  return (
    <form onSubmit={submit} aria-label="Admission policy">
      <Section title="When an image breaks a rule">
        <SelectField label="Mode" hint="What happens to an image that breaks a rule. Every decision is recorded." value={form.mode} options={kModes} onChange={(mode) => change({ mode })} />
      </Section>
      <Section title="Which images may run">
        <Switch name="requireCatalogImages" form={form} change={change} />
        <Switch name="requireScan" form={form} change={change} />
        <Switch name="requireDigest" form={form} change={change} />
        <Switch name="requireCatalogRegistry" form={form} change={change} />
        <ListField name="allowedRegistries" value={form.allowedRegistries} onInput={(allowedRegistries) => change({ allowedRegistries })} />
      </Section>
      <Section title="Vulnerabilities">
        <p class="muted">Counted on the latest scan of the image's version; unknown severity never counts.</p>
        <SelectField label="Deny vulnerabilities at or above" value={form.severityThreshold} options={kThresholds} onChange={(severityThreshold) => change({ severityThreshold })} />
        <Switch name="onlyFixable" form={form} change={change} />
        <TextField
          label="Grace period in days"
          hint={`A vulnerability counts only this many days after the service first saw it on that version: 0 to ${kMaxGraceDays}.`}
          type="number"
          min={0}
          max={kMaxGraceDays}
          step={1}
          required
          value={form.gracePeriodDays}
          onInput={(gracePeriodDays) => change({ gracePeriodDays })}
        />
        <Switch name="denyWatchedCves" form={form} change={change} />
        <Switch name="denyKnownExploited" form={form} change={change} />
        <TextField
          label={kMaxEpssLabel}
          hint="Deny a vulnerability whose EPSS score (the probability of exploitation in the next 30 days, 0 to 1) is above this. Empty: no limit."
          type="number"
          min={0}
          max={1}
          step="any"
          value={form.maxEpss}
          onInput={(maxEpss) => change({ maxEpss })}
        />
        <Switch name="trustVendorVex" form={form} change={change} />
      </Section>
      <Section title="Exemptions">
        <ListField name="exemptNamespaces" value={form.exemptNamespaces} onInput={(exemptNamespaces) => change({ exemptNamespaces })} />
        <ListField name="exemptImages" value={form.exemptImages} onInput={(exemptImages) => change({ exemptImages })} />
      </Section>
      <Exceptions rows={form.exceptions} images={images} onChange={(exceptions) => change({ exceptions })} />
      <div class="card">
        <ErrorNotice error={error} />
        {saved && (
          <p class="success" role="status">
            Saved: the next admission review uses this policy.
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? "Saving…" : "Save policy"}
          </button>
          <button type="button" onClick={discard} disabled={busy}>
            Discard changes
          </button>
        </div>
      </div>
    </form>
  );
}

// ------------------------------------------------------------------ the page

// The catalogue's images name an exception's image (its first 200, the most one page holds).
async function loadPolicy() {
  const [policy, catalogue] = await Promise.all([getJson("/api/admission-policy"), getJson("/api/docker-images", { limit: 200 })]);
  return { policy, images: catalogue.images };
}

export default function AdmissionPolicy() {
  const isAdmin = useIsAdmin();
  const loaded = useLoad(loadPolicy, []);
  return (
    <Page title="Admission policy" actions={<Link href="/admission/decisions">Decision log</Link>}>
      <p>
        What the Kubernetes admission webhook (<code>POST /v1/admission</code>, a key with the <code>admission</code> scope) lets
        run in your clusters.
      </p>
      {!loaded.data ? (
        <Pending state={loaded} what="Loading the policy" />
      ) : isAdmin ? (
        <PolicyForm policy={loaded.data.policy} images={loaded.data.images} />
      ) : (
        <PolicyView policy={loaded.data.policy} images={loaded.data.images} />
      )}
    </Page>
  );
}
