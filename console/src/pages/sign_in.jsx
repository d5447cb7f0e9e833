// /sign-in: tenant, email, password. The tenant is prefilled from the last sign-in on this
// browser, else from the host name when it is a tenant's subdomain (acme.icat.example.com or
// acme.localhost).
import { useState } from "preact/hooks";
import { rememberedTenant, signIn } from "../api.js";
import { navigate, useQuery } from "../router.jsx";
import { ErrorNotice, Page, TextField, useSubmit } from "../ui.jsx";

export function tenantFromHost(hostname) {
  if (/^[\d.]+$/.test(hostname) || hostname.includes(":")) return "";  // an IP address
  const labels = hostname.split(".");
  const isTenantHost = labels.length >= 3 || (labels.length === 2 && labels[1] === "localhost");
  return isTenantHost && /^[a-z0-9-]+$/.test(labels[0]) ? labels[0] : "";
}

// Only a path of this console: a crafted ?next= must not send the person elsewhere.
export function safeNext(next) {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/images";
}

export default function SignIn() {
  const [query] = useQuery();
  const [tenant, setTenant] = useState(rememberedTenant() || tenantFromHost(location.hostname));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, error, submit } = useSubmit(async () => {
    await signIn(tenant.trim().toLowerCase(), email.trim(), password);
    navigate(safeNext(query.next), { replace: true });
  });
  return (
    <div class="narrow">
      <Page title="Sign in to icat">
        <form onSubmit={submit} class="card">
          <TextField label="Tenant" hint="Your organisation's subdomain" value={tenant} onInput={setTenant} required autoComplete="organization" />
          <TextField label="Email" type="email" value={email} onInput={setEmail} required autoComplete="username" />
          <TextField label="Password" type="password" value={password} onInput={setPassword} required autoComplete="current-password" />
          <ErrorNotice error={error} />
          <button type="submit" class="primary" disabled={busy}>
            {busy ? "Signing in…" : "Sign in"}
          </button>
        </form>
      </Page>
    </div>
  );
}
