// /users (admin only; app.jsx closes it for other roles): the tenant's people, those who sign in
// through the tenant's identity provider marked SSO. An admin adds one by
// email and role and hands over the one-time set-up link; changes a role, disables, re-enables or
// removes an account; re-issues the link of someone who has not set a password yet; resets the
// second factor of someone who lost their authenticator app, and requires one of everybody. The API
// keeps the last admin from being demoted, disabled or removed, and its refusal is shown as it says.
import { useState } from "preact/hooks";
import { getJson, sendJson, session } from "../api.js";
import {
  CheckField,
  ConfirmButton,
  Empty,
  ErrorNotice,
  Page,
  Pager,
  Pending,
  SecretOnce,
  SelectField,
  Table,
  TextField,
  When,
  useLoad,
  usePagedList,
  useSubmit,
} from "../ui.jsx";
import { kRoles } from "../vocabulary.js";

// The link a new person opens: the token in the fragment, never sent to a server.
function setupLink(token) {
  const fragment = new URLSearchParams({ tenant: session.get().tenant, token });
  return `${location.origin}/setup#${fragment}`;
}

function SetupLink({ issued }) {
  return (
    <SecretOnce label={`Set-up link for ${issued.email}`} value={setupLink(issued.setupToken)}>
      <p>
        Send it to {issued.email} by a channel you trust. It works once, until <When at={issued.setupExpiresAt} />.
      </p>
    </SecretOnce>
  );
}

function NewUser({ onIssued }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("viewer");
  const { busy, error, submit } = useSubmit(async () => {
    const created = await sendJson("POST", "/api/users", { email: email.trim(), role });
    setEmail("");
    onIssued({ email: created.email, setupToken: created.setupToken, setupExpiresAt: created.setupExpiresAt });
  });
  return (
    <form class="card" onSubmit={submit} aria-labelledby="new-user-title">
      <h2 id="new-user-title">Add a person</h2>
      <div class="row">
        <TextField label="Email" type="email" value={email} onInput={setEmail} required autoComplete="off" />
        <SelectField label="Role" value={role} onChange={setRole} options={kRoles} />
      </div>
      <ErrorNotice error={error} />
      <button type="submit" class="primary" disabled={busy}>
        Add and make a set-up link
      </button>
    </form>
  );
}

// The tenant's sign-in policy: one switch, saved as it is flipped.
function SignInPolicy() {
  const policy = useLoad(() => getJson("/api/sign-in-policy"), []);
  const [error, setError] = useState(null);
  const flip = async (totpRequired) => {
    setError(null);
    try {
      await sendJson("PUT", "/api/sign-in-policy", { totpRequired });
      policy.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <div class="card">
      <h2>Sign-in policy</h2>
      {!policy.data ? (
        <Pending state={policy} what="Loading the sign-in policy" />
      ) : (
        <CheckField
          label="Require a second factor"
          hint="Everyone who signs in with a password also gives a code from an authenticator app; those without one add it at their next sign-in."
          checked={policy.data.totpRequired}
          onChange={flip}
        />
      )}
      <ErrorNotice error={error} />
    </div>
  );
}

function UserRow({ user, isMe, onChanged, onIssued }) {
  const [error, setError] = useState(null);
  const change = async (body) => {
    setError(null);
    try {
      await sendJson("PUT", `/api/users/${user.id}`, body);
      onChanged();
    } catch (failure) {
      setError(failure);
    }
  };
  const reissue = async () => {
    const issued = await sendJson("POST", `/api/users/${user.id}/setup-token`, {});
    onIssued({ email: user.email, setupToken: issued.setupToken, setupExpiresAt: issued.setupExpiresAt });
  };
  return (
    <tr>
      <th scope="row">
        {user.email}
        {isMe && <span class="muted"> (you)</span>}
        {user.sso && (
          <>
            {" "}
            <span class="badge quiet">SSO</span>
          </>
        )}
      </th>
      <td>
        <select aria-label={`Role of ${user.email}`} value={user.role} onChange={(event) => change({ role: event.currentTarget.value })}>
          {kRoles.map(([value]) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </td>
      <td>{user.state.replace("_", " ")}</td>
      <td>
        <When at={user.createdAt} />
      </td>
      <td>
        <When at={user.lastLoginAt} />
      </td>
      <td>{user.totp ? "on" : "off"}</td>
      <td class="actions">
        {user.state === "pending_setup" && (
          <button type="button" onClick={() => reissue().catch(setError)}>
            New set-up link
          </button>
        )}{" "}
        {user.state === "disabled" ? (
          <button type="button" onClick={() => change({ disabled: false })}>
            Enable
          </button>
        ) : (
          <button type="button" class="danger" onClick={() => change({ disabled: true })}>
            Disable
          </button>
        )}{" "}
        {user.totp && (
          <ConfirmButton
            label="Reset two-step sign-in"
            question={`Remove the authenticator app of ${user.email}? They sign in with their password until they add one again.`}
            onConfirm={async () => {
              await sendJson("DELETE", `/api/users/${user.id}/totp`);
              onChanged();
            }}
          />
        )}{" "}
        <ConfirmButton
          label="Remove"
          question={`Remove ${user.email}? Their sessions end and they cannot sign in again.`}
          onConfirm={async () => {
            await sendJson("DELETE", `/api/users/${user.id}`);
            onChanged();
          }}
        />
        <ErrorNotice error={error} />
      </td>
    </tr>
  );
}

export default function Users() {
  const [issued, setIssued] = useState(null);
  const list = usePagedList("/api/users", { limit: 50 });
  const { pages } = list;
  const me = session.get()?.user?.id;
  return (
    <Page title="Users">
      <NewUser onIssued={(link) => (setIssued(link), list.reload())} />
      {issued && <SetupLink issued={issued} />}
      {!list.data ? (
        <Pending state={list} what="Loading the users" />
      ) : list.data.users.length === 0 ? (
        <Empty>No users.</Empty>
      ) : (
        <Table caption="The tenant's users">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">State</th>
              <th scope="col">Added</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Two-step</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data.users.map((user) => (
              <UserRow key={user.id} user={user} isMe={user.id === me} onChanged={list.reload} onIssued={setIssued} />
            ))}
          </tbody>
        </Table>
      )}
      {list.data && <Pager pages={pages} nextCursor={list.data.nextCursor} label="User pages" />}
      <SignInPolicy />
    </Page>
  );
}
