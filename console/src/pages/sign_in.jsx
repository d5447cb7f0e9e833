// /sign-in: tenant, email, password. The tenant is prefilled from the host name when it is a
// tenant's subdomain (acme.icat.example.com, acme.localhost), else from the last sign-in here.
// A person with a second factor then gives its code; one whose tenant requires a factor and who
// has none enrols an authenticator app first (second_factor.jsx).
import { useState } from "preact/hooks";
import { rememberedTenant, signIn } from "../api.js";
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
