// The two pages an e-mail channel's mails link to (docs/notifications.md): confirming an address and
// unsubscribing it. No sign-in: the token in the path is the credential. Opening the page changes
// nothing (mail scanners open links); its button POSTs, and the page says plainly what happened,
// a used, unknown or expired link included.
import { useState } from "preact/hooks";
import { postLink } from "../api.js";
import { tenantFromHost } from "../paths.js";
import { ErrorNotice, Page, useSubmit } from "../ui.jsx";

// The page of one link: what it is for, its button, then the answer in words.
function LinkPage({ title, intro, button, path, done, gone }) {
  const [reply, setReply] = useState(null);
  const [used, setUsed] = useState(false);
  const { busy, error, submit } = useSubmit(async () => {
    try {
      setReply(await postLink(path));
    } catch (failure) {
      if (failure.status !== 404) throw failure;
      setUsed(true);
    }
  });
  const tenant = tenantFromHost(location.hostname);
  return (
    <div class="narrow">
      <Page title={title}>
        {tenant && (
          <p>
            Tenant: <strong>{tenant}</strong>
          </p>
        )}
        {reply ? (
          <p class="success" role="status">
            {done(reply)}
          </p>
        ) : used ? (
          <p class="notice" role="status">
            {gone}
          </p>
        ) : (
          <>
            <p>{intro}</p>
            <button type="button" class="primary" disabled={busy} onClick={submit}>
              {button}
            </button>
            <ErrorNotice error={error} />
          </>
        )}
      </Page>
    </div>
  );
}

export function ConfirmAddress({ params }) {
  return (
    <LinkPage
      title="Confirm your address"
      intro="Someone added this address to a notification channel. Confirm it to receive its messages; if you did not expect this, close this page and nothing will be sent to you."
      button="Confirm"
      path={`/api/notification-addresses/confirm/${encodeURIComponent(params.token)}`}
      done={(reply) => `${reply.address} is confirmed: it gets the messages of the channel ${reply.channel} from now on.`}
      gone="This link was used already, has expired (links last 7 days) or is unknown: nothing changed. Ask an admin of the tenant to add the address again for a new link."
    />
  );
}

export function Unsubscribe({ params }) {
  return (
    <LinkPage
      title="Unsubscribe"
      intro="Stop the messages of this notification channel to your address."
      button="Unsubscribe"
      path={`/api/notification-addresses/unsubscribe/${encodeURIComponent(params.token)}`}
      done={(reply) => `${reply.address} is unsubscribed: it gets nothing more from this channel.`}
      gone="This link was used already or is unknown: nothing changed. If you used it before, the address is unsubscribed already."
    />
  );
}
