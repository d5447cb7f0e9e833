// /sign-in: tenant, email, password. The tenant is prefilled from the host name when it is a
// tenant's subdomain (acme.icat.example.com, acme.localhost), else from the last sign-in here.
// A person with a second factor then gives its code; one whose tenant requires a factor and who
// has none enrols an authenticator app first (second_factor.jsx).
// A tenant with single sign-on (docs/sso.md) gets "Sign in with <provider>"; when it requires it,
// the password form is only for its break-glass admin, folded away.
import { useEffect, useState } from "preact/hooks";
import { expectSsoSession, rememberedTenant, signIn, ssoProvider, ssoStartPath } from "../api.js";
import { safeNext, tenantFromHost } from "../paths.js";
import { navigate, useQuery } from "../router.jsx";
import { CodeStep, RecoveryCodes, TotpEnrolment } from "../second_factor.jsx";
import { ErrorNotice, Page, TextField, useSubmit } from "../ui.jsx";

// The step after a right password that the API's answer asks for.
const kSecondSteps = { SECOND_FACTOR_REQUIRED: "code", SECOND_FACTOR_ENROLMENT_REQUIRED: "enrol" };

function SecondStep({ step, credentials, onSignedIn }) {
  const [codes, setCodes] = useState(null);
  if (codes) return <RecoveryCodes codes={codes} onDone={onSignedIn} />;
  if (step === "code") return <CodeStep {...credentials} onSignedIn={onSignedIn} />;
  return (
    <>
      <p>Your tenant requires two-step sign-in: add an authenticator app to go on.</p>
      <TotpEnrolment {...credentials} onSignedIn={setCodes} />
    </>
  );
}

// What each refusal of the single sign-on (the `ssoError` the API's callback sends back) means.
const kSsoErrors = {
  SSO_NOT_CONFIGURED: "Single sign-on is not set up for this tenant (any more): sign in with your password, or ask your admin.",
  SSO_STATE_INVALID:
    "This sign-in could not be matched to one this browser started: it took more than ten minutes, was used already, or began in another browser. Start again.",
  SSO_PROVIDER_ERROR: "Your identity provider refused the sign-in or could not be reached. Try again; if it keeps failing, tell your admin.",
  SSO_TOKEN_INVALID: "Your identity provider's answer failed the security checks, so you were not signed in. Tell your admin: the audit log names the check.",
  SSO_ACCESS_REFUSED:
    "Your identity provider knows you, but this tenant does not let you in: your groups give you no role here, your email's domain is not allowed, or your account is disabled. Ask your admin.",
};

const kTenantPattern = /^[a-z0-9-]+$/;
// Asked once the person stops typing the tenant, not at each key.
const kProviderLookupDelayMs = 400;

// The tenant's provider, or null (none, or the tenant is not known yet).
function useSsoProvider(tenant) {
  const [provider, setProvider] = useState(null);
  useEffect(() => {
    setProvider(null);
    if (!kTenantPattern.test(tenant)) return undefined;
    let current = true;
    const timer = setTimeout(() => {
      ssoProvider(tenant).then(
        (found) => current && setProvider(found),
        () => {},
      );
    }, kProviderLookupDelayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [tenant]);
  return provider;
}

function SsoError({ name }) {
  if (!name) return null;
  return (
    <div class="error" role="alert">
      <p>
        <strong>Single sign-on did not sign you in.</strong> {kSsoErrors[name] || "It failed; try again or ask your admin."}
      </p>
      <p class="muted">{name}</p>
    </div>
  );
}

function SsoLink({ tenant, provider, next }) {
  return (
    <p>
      <a class="button primary" href={ssoStartPath(tenant, next)} onClick={() => expectSsoSession(tenant)}>
        Sign in with {provider.displayName}
      </a>
    </p>
  );
}

export default function SignIn() {
  const [query] = useQuery();
  const [tenant, setTenant] = useState(tenantFromHost(location.hostname) || rememberedTenant());
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [step, setStep] = useState(null);  // after the password: "code" or "enrol"
  const credentials = { tenant: tenant.trim().toLowerCase(), email: email.trim(), password };
  const done = () => navigate(safeNext(query.next), { replace: true });
  const { busy, error, submit } = useSubmit(async () => {
    try {
      await signIn(credentials.tenant, credentials.email, password);
    } catch (failure) {
      if (!kSecondSteps[failure.error]) throw failure;
      return setStep(kSecondSteps[failure.error]);
    }
    done();
  });
  const subdomain = tenant.trim().toLowerCase();
  const provider = useSsoProvider(subdomain);
  if (step) {
    return (
      <div class="narrow">
        <Page title="Sign in to icat">
          <div class="card">
            <SecondStep step={step} credentials={credentials} onSignedIn={done} />
          </div>
        </Page>
      </div>
    );
  }
  const passwordFields = (
    <>
      <TextField label="Email" type="email" value={email} onInput={setEmail} required autoComplete="username" />
      <TextField label="Password" type="password" value={password} onInput={setPassword} required autoComplete="current-password" />
      <ErrorNotice error={error} />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </>
  );
  return (
    <div class="narrow">
      <Page title="Sign in to icat">
        <SsoError name={query.ssoError} />
        <form onSubmit={submit} class="card">
          <TextField label="Tenant" hint="Your organisation's subdomain" value={tenant} onInput={setTenant} required autoComplete="organization" />
          {provider && <SsoLink tenant={subdomain} provider={provider} next={safeNext(query.next)} />}
          {provider?.required ? (
            <details class="break-glass">
              <summary>Break-glass sign-in</summary>
              <p class="muted">This tenant signs in with {provider.displayName}; only its break-glass admin signs in with a password.</p>
              {passwordFields}
            </details>
          ) : (
            passwordFields
          )}
        </form>
      </Page>
    </div>
  );
}
