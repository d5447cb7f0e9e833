// /setup#token=...: a new user's one-time link. The token travels in the fragment, which the
// browser never sends to a server (no access log holds it); the person chooses a password and is
// signed in. A used or expired link is refused by the API, and the page says what to do.
import { useState } from "preact/hooks";
import { completeSetup, rememberedTenant } from "../api.js";
import { navigate } from "../router.jsx";
import { ErrorNotice, Page, TextField, useSubmit } from "../ui.jsx";
import { kMinPasswordChars, newPasswordProblem } from "../password.js";
import { tenantFromHost } from "../paths.js";

function linkParts() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  return { token: fragment.get("token") || "", tenant: fragment.get("tenant") || "" };
}

export default function Setup() {
  const link = linkParts();
  const [tenant, setTenant] = useState(link.tenant || tenantFromHost(location.hostname) || rememberedTenant());
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const { busy, error, submit, setError } = useSubmit(async () => {
    const problem = newPasswordProblem(password, again);
    if (problem) return setError({ message: problem, details: [] });
    await completeSetup(tenant.trim().toLowerCase(), link.token, password);
    history.replaceState(null, "", "/setup");  // the used token leaves the address bar
    navigate("/images", { replace: true });
  });
  if (!link.token) {
    return (
      <div class="narrow">
        <Page title="Set up your account">
          <p>This page needs the set-up link an admin of your tenant gave you. Ask them for a new one.</p>
        </Page>
      </div>
    );
  }
  return (
    <div class="narrow">
      <Page title="Set up your account">
        <form onSubmit={submit} class="card">
          <TextField label="Tenant" value={tenant} onInput={setTenant} required autoComplete="organization" />
          <TextField label="New password" hint={`At least ${kMinPasswordChars} characters`} type="password" value={password} onInput={setPassword} required autoComplete="new-password" />
          <TextField label="New password again" type="password" value={again} onInput={setAgain} required autoComplete="new-password" />
          <ErrorNotice error={error} />
          {error?.status === 401 && <p>This link was used already or has expired: ask an admin of your tenant for a new one.</p>}
          <button type="submit" class="primary" disabled={busy}>
            Set password and sign in
          </button>
        </form>
      </Page>
    </div>
  );
}
