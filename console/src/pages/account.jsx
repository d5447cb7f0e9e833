// /account: who is signed in, changing one's own password (which signs out every other session),
// and signing out everywhere.
import { useState } from "preact/hooks";
import { changePassword, session, signOut } from "../api.js";
import { kMinPasswordChars, newPasswordProblem } from "../password.js";
import { navigate } from "../router.jsx";
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

export default function Account() {
  const { me, user } = useSignal(session) || {};
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
