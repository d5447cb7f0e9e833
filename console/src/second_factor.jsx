// The second factor's steps, shared by the sign-in page and the account page: enrolling an
// authenticator app (its QR code, drawn here from the otpauth URI by uqr, and the secret as text),
// the code that confirms it and signs in, the recovery codes shown once, and the code step of a
// sign-in. The secret and the password stay in these components' memory, never in storage.
import { useEffect, useState } from "preact/hooks";
import { encode } from "uqr";
import { enrolTotp, signIn } from "./api.js";
import { ErrorNotice, TextField, useSubmit } from "./ui.jsx";

// What the sign-in asks for: the app's code, or one of the recovery codes.
export const kCodeHint = "The 6 digits your authenticator app shows for this account";

// The QR code as SVG: one path of unit squares, quiet zone included (4 modules, as the standard asks).
function QrCode({ text, label }) {
  const { size, data } = encode(text, { ecc: "M", border: 4 });
  let path = "";
  data.forEach((row, y) => row.forEach((dark, x) => dark && (path += `M${x} ${y}h1v1h-1z`)));
  return (
    <svg class="qr" viewBox={`0 0 ${size} ${size}`} width="240" height="240" role="img" aria-label={label} shape-rendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

// The ten recovery codes, shown once after the factor is confirmed.
export function RecoveryCodes({ codes, onDone }) {
  return (
    <div class="secret" role="region" aria-label="Recovery codes">
      <h2>Your recovery codes</h2>
      <p>Each one signs you in once, instead of a code, if you lose your authenticator app.</p>
      <ul class="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p class="warning">
        <strong>Shown once.</strong> Keep them somewhere safe: the service stores only their hashes.
      </p>
      <button type="button" class="primary" onClick={onDone}>
        I have kept them
      </button>
    </div>
  );
}

// Enrols an app for the person (their password, already asked), then signs in with its first
// code, which confirms it; onSignedIn gets the recovery codes the sign-in returned.
export function TotpEnrolment({ tenant, email, password, onSignedIn }) {
  const [enrolment, setEnrolment] = useState(null);
  const [code, setCode] = useState("");
  const started = useSubmit(async () => setEnrolment(await enrolTotp(tenant, email, password)));
  useEffect(() => void started.submit(), []);
  const confirm = useSubmit(async () => {
    const reply = await signIn(tenant, email, password, { code: code.trim() });
    onSignedIn(reply.recoveryCodes || []);
  });
  if (!enrolment) return started.error ? <ErrorNotice error={started.error} /> : <p class="muted">Preparing…</p>;
  return (
    <form onSubmit={confirm.submit} aria-labelledby="enrol-title">
      <h2 id="enrol-title">Add an authenticator app</h2>
      <p>Scan this code with your authenticator app, or type the key into it.</p>
      <QrCode text={enrolment.otpauthUri} label="QR code for your authenticator app" />
      <TextField label="Key" value={enrolment.secret} onInput={() => {}} readOnly />
      <TextField label="Code" hint={kCodeHint} value={code} onInput={setCode} required inputMode="numeric" autoComplete="one-time-code" />
      <ErrorNotice error={confirm.error} />
      <button type="submit" class="primary" disabled={confirm.busy}>
        Confirm and sign in
      </button>
    </form>
  );
}

// A sign-in's second step: the app's code, or a recovery code instead.
export function CodeStep({ tenant, email, password, onSignedIn }) {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState("");
  const { busy, error, submit } = useSubmit(async () => {
    await signIn(tenant, email, password, recovery ? { recoveryCode: value.trim() } : { code: value.trim() });
    onSignedIn();
  });
  return (
    <form onSubmit={submit} aria-labelledby="code-title">
      <h2 id="code-title">Two-step sign-in</h2>
      {recovery ? (
        <TextField label="Recovery code" value={value} onInput={setValue} required autoComplete="off" />
      ) : (
        <TextField label="Code" hint={kCodeHint} value={value} onInput={setValue} required inputMode="numeric" autoComplete="one-time-code" />
      )}
      <ErrorNotice error={error} />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>{" "}
      <button type="button" onClick={() => (setRecovery(!recovery), setValue(""))}>
        {recovery ? "Use a code from the app" : "Use a recovery code"}
      </button>
    </form>
  );
}
