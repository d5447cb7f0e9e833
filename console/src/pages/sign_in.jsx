// /sign-in: tenant, email, password. The tenant is prefilled from the host name when it is a
// tenant's subdomain (acme.icat.example.com, acme.localhost), else from the last sign-in here.
import { useState } from "preact/hooks";
import { rememberedTenant, signIn } from "../api.js";
import { safeNext, tenantFromHost } from "../paths.js";
import { navigate, useQuery } from "../router.jsx";
import { ErrorNotice, Page, TextField, useSubmit } from "../ui.jsx";

export default function SignIn() {
  const [query] = useQuery();
  const [tenant, setTenant] = useState(tenantFromHost(location.hostname) || rememberedTenant());
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
