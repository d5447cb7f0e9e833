// The frame around every page: who is signed in, the navigation, and which page the path names.
// A page that needs a session waits for the reload's refresh before deciding to send the person
// to sign in.
import { useEffect, useState } from "preact/hooks";
import { resume, session, signOut } from "./api.js";
import { Link, matchPath, navigate, useUrl } from "./router.jsx";
import { kRoutes } from "./routes.js";
import { AdminOnly, Page } from "./ui.jsx";
import { useSignal } from "./state.js";

function findRoute(pathname) {
  for (const route of kRoutes) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

function Navigation({ pathname, signedIn }) {
  const isAdmin = signedIn.user.role === "admin";
  return (
    <header class="top">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Link href="/images" class="brand">
        icat
      </Link>
      <nav aria-label="Main">
        <ul>
          {kRoutes
            .filter((route) => route.nav && (isAdmin || !route.adminOnly))
            .map((route) => (
              <li key={route.path}>
                <Link href={route.path} aria-current={pathname.startsWith(route.path) ? "page" : undefined}>
                  {route.nav}
                </Link>
              </li>
            ))}
        </ul>
      </nav>
      <div class="who">
        <Link href="/account" aria-current={pathname === "/account" ? "page" : undefined}>
          {signedIn.user.email}
        </Link>{" "}
        <span class="muted">
          {signedIn.user.role} · {signedIn.me?.tenant?.name || signedIn.tenant}
        </span>{" "}
        <button type="button" onClick={() => signOut().finally(() => navigate("/sign-in"))}>
          Sign out
        </button>
      </div>
    </header>
  );
}

function NotFound() {
  return (
    <Page title="Not found">
      <p>
        No page here. <Link href="/images">Go to the images</Link>.
      </p>
    </Page>
  );
}

export function App() {
  const url = useUrl();
  const signedIn = useSignal(session);
  const [resumed, setResumed] = useState(false);
  useEffect(() => {
    resume().finally(() => setResumed(true));
  }, []);

  const found = findRoute(url.pathname);
  const needsSession = found && !found.route.open;
  useEffect(() => {
    if (resumed && needsSession && !signedIn) {
      navigate("/sign-in?next=" + encodeURIComponent(url.pathname + url.search), { replace: true });
    }
  }, [resumed, needsSession, signedIn, url]);

  if (!resumed) {
    return (
      <main id="main" class="center">
        <p role="status">Opening the console…</p>
      </main>
    );
  }
  if (needsSession && !signedIn) return null;

  const { route, params } = found || {};
  const Current = route?.page || NotFound;
  const closed = route?.adminOnly && signedIn?.user?.role !== "admin";
  return (
    <>
      {signedIn && !route?.open && <Navigation pathname={url.pathname} signedIn={signedIn} />}
      <main id="main">
        {closed ? (
          <Page title={route.nav}>
            <AdminOnly what={route.adminOnly} />
          </Page>
        ) : (
          <Current key={url.pathname} params={params} />
        )}
      </main>
    </>
  );
}
