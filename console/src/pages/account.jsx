// /account: who is signed in, changing one's own password (which signs out every other session),
// two-step sign-in (an authenticator app), and signing out everywhere.
import { useState } from "preact/hooks";
import { changePassword, removeTotp, session, signOut } from "../api.js";
import { kMinPasswordChars, newPasswordProblem } from "../password.js";
import { navigate } from "../router.jsx";
import { RecoveryCodes, TotpEnrolment } from "../second_factor.jsx";
import { useSignal } from "../state.js";
import { ConfirmButton, ErrorNotice, Page, TextField, useSubmit, When } from "../ui.jsx";

function PasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [done, setDone] = useState(false);
  const { busy, error, submit, setError } = useSubmit(async () => {
    setDone(false);
    const problem = newPasswordProblem(next, again);
    if (problem) return setError({ message: problem, details: [] });
    await changePassword(current, next);
    setCurrent("");
    setNext("");
    setAgain("");
    setDone(true);
  });
  return (
    <form class="card" onSubmit={submit} aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <TextField label="Current password" type="password" value={current} onInput={setCurrent} required autoComplete="current-password" />
      <TextField label="New password" hint={`At least ${kMinPasswordChars} characters`} type="password" value={next} onInput={setNext} required autoComplete="new-password" />
      <TextField label="New password again" type="password" value={again} onInput={setAgain} required autoComplete="new-password" />
      <ErrorNotice error={error} />
      {done && (
        <p class="success" role="status">
          Password changed. Every other session of yours is signed out; this one goes on.
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        Change password
      </button>
    </form>
  );
}

// Adding an authenticator app: the password first (the enrolment asks it, as sign-in does), then
// the app's QR code and its first code, which signs in again and confirms it, then the recovery codes.
function TwoStepSignIn({ me, tenant }) {
  const [password, setPassword] = useState("");
  const [stage, setStage] = useState("off");  // off, password, enrol, codes
  const [codes, setCodes] = useState([]);
  if (stage === "codes") return <RecoveryCodes codes={codes} onDone={() => (setCodes([]), setStage("off"))} />;
  if (me?.totp) {
    return (
      <>
        <p>On: signing in asks for a code from your authenticator app.</p>
        <ConfirmButton label="Turn off two-step sign-in" question="Remove your authenticator app and its recovery codes?" onConfirm={removeTotp} />
      </>
    );
  }
  if (stage === "enrol") {
    return (
      <TotpEnrolment
        tenant={tenant}
        email={me.email}
        password={password}
        onSignedIn={(recoveryCodes) => (setPassword(""), setCodes(recoveryCodes), setStage("codes"))}
      />
    );
  }
  if (stage === "password") {
    return (
      <form onSubmit={(event) => (event.preventDefault(), setStage("enrol"))}>
        <TextField label="Your password" type="password" value={password} onInput={setPassword} required autoComplete="current-password" />
        <button type="submit" class="primary">
          Continue
        </button>
      </form>
    );
  }
  return (
    <>
      <p>Off. With an authenticator app, signing in also asks for the code it shows.</p>
      <button type="button" class="primary" onClick={() => setStage("password")}>
        Add an authenticator app
      </button>
    </>
  );
}

export default function Account() {
  const { me, user, tenant } = useSignal(session) || {};
  return (
    <Page title="Your account">
      <div class="card">
        <dl class="facts">
          <dt>Email</dt>
          <dd>{user?.email}</dd>
          <dt>Role</dt>
          <dd>{user?.role}</dd>
          <dt>Tenant</dt>
          <dd>
            {me?.tenant?.name} (<code>{me?.tenant?.subdomain}</code>)
          </dd>
          <dt>Member since</dt>
          <dd>
            <When at={me?.createdAt} />
          </dd>
        </dl>
      </div>
      <PasswordForm />
      <div class="card">
        <h2>Two-step sign-in</h2>
        <TwoStepSignIn me={me} tenant={tenant} />
      </div>
      <div class="card">
        <h2>Sessions</h2>
        <p>Signing out everywhere ends this session and every other one of yours, on every device.</p>
        <ConfirmButton
          label="Sign out everywhere"
          question="Sign out of every session?"
          onConfirm={async () => {
            await signOut({ everywhere: true });
            navigate("/sign-in");
          }}
        />
      </div>
    </Page>
  );
}
