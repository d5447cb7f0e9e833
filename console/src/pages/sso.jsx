// /sso (admin only; app.jsx closes it for other roles): the tenant's single sign-on with its own
// OpenID Provider (GET, PUT, DELETE /api/sso; docs/sso.md). Every field of the configuration; the
// client secret is write-only: the API says only whether one is stored, and an empty field keeps it.
// The redirect URI to register at the provider is shown with a copy button.
import { useState } from "preact/hooks";
import { getJson, sendJson } from "../api.js";
import {
  CheckField,
  ConfirmButton,
  CopyButton,
  ErrorNotice,
  Field,
  Page,
  Pending,
  SelectField,
  TextField,
  When,
  useLoad,
  useSubmit,
} from "../ui.jsx";
import { kRoles } from "../vocabulary.js";

const kDefaultRoles = [["refuse", "Refuse: a person in no mapped group cannot sign in"], ...kRoles];
const kMaxSessionHours = 720;
const kMaxMappings = 100;

// The API's defaults for a tenant with no configuration yet (design of PUT /api/sso).
const kNewConfiguration = {
  issuer: "",
  clientId: "",
  clientSecretSet: false,
  displayName: "",
  scopes: ["openid", "email", "profile"],
  groupsClaim: "groups",
  roleMapping: {},
  defaultRole: "refuse",
  allowedDomains: [],
  required: false,
  breakGlassEmail: null,
  maxSessionHours: 12,
};

let mappingRows = 0;
const mappingRow = (group = "", role = "viewer") => ({ row: ++mappingRows, group, role });

function toForm(sso) {
  return {
    issuer: sso.issuer,
    clientId: sso.clientId,
    clientSecret: "",
    displayName: sso.displayName,
    scopes: sso.scopes.join(" "),
    groupsClaim: sso.groupsClaim,
    mappings: Object.entries(sso.roleMapping).map(([group, role]) => mappingRow(group, role)),
    defaultRole: sso.defaultRole,
    allowedDomains: sso.allowedDomains.join("\n"),
    required: sso.required,
    breakGlassEmail: sso.breakGlassEmail ?? "",
    maxSessionHours: String(sso.maxSessionHours),
  };
}

const words = (text, separator) =>
  text
    .split(separator)
    .map((word) => word.trim())
    .filter(Boolean);

// The body of PUT: an empty secret is left out (the stored one is kept), an empty display name
// too (the API names the provider by the issuer's host).
function toRequest(form) {
  return {
    issuer: form.issuer.trim(),
    clientId: form.clientId.trim(),
    ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
    ...(form.displayName.trim() ? { displayName: form.displayName.trim() } : {}),
    scopes: words(form.scopes, /\s+/),
    groupsClaim: form.groupsClaim.trim(),
    roleMapping: Object.fromEntries(form.mappings.filter((row) => row.group.trim()).map((row) => [row.group.trim(), row.role])),
    defaultRole: form.defaultRole,
    allowedDomains: words(form.allowedDomains, "\n"),
    required: form.required,
    breakGlassEmail: form.breakGlassEmail.trim() || null,
    maxSessionHours: Number(form.maxSessionHours),
  };
}

function RedirectUri({ uri }) {
  return (
    <section class="card" aria-labelledby="redirect-title">
      <h2 id="redirect-title">Redirect URI to register</h2>
      <p>Register this address at your provider as the application's redirect (callback) URI; it is the same for every person.</p>
      <div class="secret-row">
        <input readOnly value={uri} aria-label="Redirect URI" onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={uri} what="the redirect URI" />
      </div>
    </section>
  );
}

function RoleMapping({ rows, onChange }) {
  const update = (row, fields) => onChange(rows.map((other) => (other.row === row.row ? { ...row, ...fields } : other)));
  return (
    <fieldset class="field">
      <legend>Groups and their roles</legend>
      <p class="muted">A person gets the highest role of their groups (admin, then user, then viewer), updated at each sign-in. At most {kMaxMappings}.</p>
      {rows.map((row, index) => (
        <div class="mapping-row" key={row.row}>
          <TextField label={`Group ${index + 1}`} value={row.group} onInput={(group) => update(row, { group })} required />
          <SelectField label={`Role of group ${index + 1}`} value={row.role} options={kRoles} onChange={(role) => update(row, { role })} />
          <button type="button" onClick={() => onChange(rows.filter((other) => other.row !== row.row))}>
            Remove group {index + 1}
          </button>
        </div>
      ))}
      <p>
        <button type="button" disabled={rows.length >= kMaxMappings} onClick={() => onChange([...rows, mappingRow()])}>
          Add a group
        </button>
      </p>
    </fieldset>
  );
}

function SsoForm({ stored, onSaved, onRemoved }) {
  const sso = stored || kNewConfiguration;
  const [form, setForm] = useState(() => toForm(sso));
  const [saved, setSaved] = useState(false);
  const change = (fields) => {
    setForm({ ...form, ...fields });
    setSaved(false);
  };
  const { busy, error, submit } = useSubmit(async () => {
    const answer = await sendJson("PUT", "/api/sso", toRequest(form));
    setForm(toForm(answer));
    setSaved(true);
    onSaved();
  });
  return (
    <form onSubmit={submit} aria-label="Single sign-on">
      <section class="card" aria-labelledby="provider-title">
        <h2 id="provider-title">Provider</h2>
        <TextField
          label="Issuer URL"
          hint="Your provider's issuer: the service reads {issuer}/.well-known/openid-configuration when you save, and its issuer must be this one."
          type="url"
          value={form.issuer}
          onInput={(issuer) => change({ issuer })}
          required
          autoComplete="off"
        />
        <TextField label="Client ID" value={form.clientId} onInput={(clientId) => change({ clientId })} required autoComplete="off" />
        <TextField
          label="Client secret"
          hint={sso.clientSecretSet ? "A secret is stored and never shown. Leave empty to keep it; type a new one to replace it." : "Required: no secret is stored yet. It is stored encrypted and never shown again."}
          type="password"
          value={form.clientSecret}
          onInput={(clientSecret) => change({ clientSecret })}
          required={!sso.clientSecretSet}
          autoComplete="new-password"
        />
        <TextField
          label="Display name"
          hint={'The sign-in page shows "Sign in with" this name. Empty: the issuer\'s host name.'}
          value={form.displayName}
          onInput={(displayName) => change({ displayName })}
          autoComplete="off"
        />
        <TextField label="Scopes" hint='Separated by spaces; must hold "openid".' value={form.scopes} onInput={(scopes) => change({ scopes })} required autoComplete="off" />
      </section>
      <section class="card" aria-labelledby="people-title">
        <h2 id="people-title">Who may sign in, with which role</h2>
        <TextField label="Groups claim" hint="The ID token's claim that lists a person's groups." value={form.groupsClaim} onInput={(groupsClaim) => change({ groupsClaim })} required autoComplete="off" />
        <RoleMapping rows={form.mappings} onChange={(mappings) => change({ mappings })} />
        <SelectField label="Role of a person in no mapped group" value={form.defaultRole} options={kDefaultRoles} onChange={(defaultRole) => change({ defaultRole })} />
        <Field label="Allowed email domains" hint="One per line. Empty: any domain the provider vouches for.">
          {(ids) => <textarea value={form.allowedDomains} onInput={(event) => change({ allowedDomains: event.currentTarget.value })} {...ids} />}
        </Field>
        <TextField
          label="Longest session in hours"
          hint={`A person signed in through the provider signs in there again after this long, so a leaver loses access within it: 1 to ${kMaxSessionHours}.`}
          type="number"
          min={1}
          max={kMaxSessionHours}
          step={1}
          value={form.maxSessionHours}
          onInput={(maxSessionHours) => change({ maxSessionHours })}
          required
        />
      </section>
      <section class="card" aria-labelledby="required-title">
        <h2 id="required-title">Passwords</h2>
        <CheckField
          label="Single sign-on required"
          hint="Password sign-in is then refused for everyone but the break-glass admin below, who keeps a way in when the provider is down."
          checked={form.required}
          onChange={(required) => change({ required })}
        />
        <TextField
          label="Break-glass admin's email"
          hint="An enabled admin of this tenant who has a password. Required when single sign-on is required."
          type="email"
          value={form.breakGlassEmail}
          onInput={(breakGlassEmail) => change({ breakGlassEmail })}
          required={form.required}
          autoComplete="off"
        />
      </section>
      <div class="card">
        <ErrorNotice error={error} />
        {saved && (
          <p class="success" role="status">
            Saved: the sign-in page offers "Sign in with {sso.displayName || "your provider"}" from now on.
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? "Checking the provider and saving…" : "Save"}
          </button>{" "}
          {stored && (
            <ConfirmButton
              label="Remove single sign-on"
              question="Remove single sign-on? People who have no password can no longer sign in; their accounts stay."
              onConfirm={async () => {
                await sendJson("DELETE", "/api/sso");
                onRemoved();
              }}
            />
          )}
        </div>
      </div>
    </form>
  );
}

// The configuration, or null when the tenant has none (404 SSO_NOT_CONFIGURED).
async function loadSso() {
  try {
    return { sso: await getJson("/api/sso") };
  } catch (error) {
    if (error.error === "SSO_NOT_CONFIGURED") return { sso: null };
    throw error;
  }
}

export default function Sso() {
  const loaded = useLoad(loadSso, []);
  const [version, setVersion] = useState(0);
  const sso = loaded.data?.sso;
  // Removed: the form starts again from the defaults.
  const afterRemoval = () => (loaded.reload(), setVersion(version + 1));
  return (
    <Page title="Single sign-on">
      <p>
        Your people sign in with your organisation's identity provider (OpenID Connect): Okta, Microsoft Entra ID, Google, Keycloak or
        any other. Their groups give them their role here.
      </p>
      {!loaded.data ? (
        <Pending state={loaded} what="Loading the configuration" />
      ) : (
        <>
          <p>
            {sso ? (
              <>
                Configured; last changed <When at={sso.updatedAt} />.
              </>
            ) : (
              "Not configured: people sign in with passwords."
            )}
          </p>
          <RedirectUri uri={sso?.redirectUri || `${location.origin}/api/auth/oidc/callback`} />
          <SsoForm key={version} stored={sso} onSaved={loaded.reload} onRemoved={afterRemoval} />
        </>
      )}
    </Page>
  );
}
