// The one way the console talks to the portal API (/api). The access token lives in this module's
// memory only; the refresh token is an HttpOnly cookie the browser sends to /api/auth and script
// never sees (docs/console.md). Every failure becomes an ApiError carrying the API's words and
// the request id, which the pages show as they are.
import { signal } from "./state.js";

// Sign-in, set-up, refresh and password change ask for the cookie instead of a token in the body.
const kCookieSessionHeader = { "X-Session-Cookie": "1" };
// Refresh this long before the access token expires, so a page never waits on an expired one.
const kRefreshMarginMs = 60_000;
// Neither is a secret: the tenant, so a reload knows whom to refresh for, and whether this browser
// holds a session at all, so a reload after signing out does not ask the API for one (a refused
// refresh is a 401 the browser's console would show as an error).
const kTenantKey = "icat.tenant";
const kSignedInKey = "icat.signedIn";

export class ApiError extends Error {
  constructor(status, body, headers) {
    super(body?.message || `The service answered ${status}.`);
    this.status = status;
    this.error = body?.error || "HTTP_" + status;
    this.details = Array.isArray(body?.details) ? body.details : [];
    this.requestId = headers?.get("X-Request-Id") || "";
    // The API's cue that the access token itself is refused (a wrong current password is a 401 too,
    // without it: refreshing would not help, and would count the attempt twice).
    this.tokenRefused = status === 401 && /^Bearer\b/.test(headers?.get("WWW-Authenticate") || "");
  }
}

// { user: {id, email, role}, tenant: "subdomain", me: {...} } while signed in, null otherwise.
export const session = signal(null);

let accessToken = "";
let refreshTimer = 0;

export function rememberedTenant() {
  return localStorage.getItem(kTenantKey) || "";
}

function adopt(tenant, reply) {
  accessToken = reply.accessToken;
  localStorage.setItem(kTenantKey, tenant);
  localStorage.setItem(kSignedInKey, "1");
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh().catch(() => {}), Math.max(reply.expiresIn * 1000 - kRefreshMarginMs, 5_000));
  session.set({ ...(session.get() || {}), tenant, user: reply.user });
}

function forget() {
  accessToken = "";
  localStorage.removeItem(kSignedInKey);
  clearTimeout(refreshTimer);
  session.set(null);
}

async function send(method, path, { body, query, tenant, headers = {}, auth = true } = {}) {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, value);
  }
  const request = { method, headers: { Accept: "application/json", ...headers }, credentials: "same-origin" };
  const who = tenant || session.get()?.tenant;
  if (who) request.headers["X-Tenant"] = who;
  if (auth && accessToken) request.headers.Authorization = "Bearer " + accessToken;
  if (body !== undefined) {
    request.headers["Content-Type"] = "application/json";
    request.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, request);
  } catch {
    throw new ApiError(0, { error: "NETWORK", message: "The service cannot be reached; check the connection and retry." });
  }
  if (response.ok) return response;
  let errorBody = null;
  try {
    errorBody = await response.json();
  } catch {
    // nginx or a proxy in between may answer without JSON: the status says enough.
  }
  throw new ApiError(response.status, errorBody, response.headers);
}

// Several tabs share one refresh cookie, and a used refresh token signs out its whole family, so
// tabs take turns (Web Locks); each turn sends whatever cookie is current by then.
function oneAtATime(work) {
  return navigator.locks ? navigator.locks.request("icat-refresh", work) : work();
}

let refreshing = null;
export function refresh() {
  const tenant = session.get()?.tenant || rememberedTenant();
  if (!tenant) return Promise.reject(new ApiError(401, { error: "UNAUTHENTICATED", message: "Sign in." }));
  refreshing ||= oneAtATime(async () => {
    try {
      const response = await send("POST", "/api/auth/refresh", { body: {}, tenant, headers: kCookieSessionHeader, auth: false });
      adopt(tenant, await response.json());
    } catch (error) {
      if (error.status === 401) forget();
      throw error;
    }
  }).finally(() => (refreshing = null));
  return refreshing;
}

// A request as the signed-in person: one refresh and one retry when the access token has expired.
export async function call(method, path, options = {}) {
  try {
    return await send(method, path, options);
  } catch (error) {
    if (!error.tokenRefused || !session.get()) throw error;
    await refresh();
    return send(method, path, options);
  }
}

// A file download (an SBOM, a bundle): a plain link cannot send the Bearer token, so it is fetched
// here and kept as the bytes received (a Blob of the ArrayBuffer: no text decoding, no
// re-serialisation, so the bytes are the API's), named by its Content-Disposition, else fallbackName.
export async function fetchAttachment(path, mediaType, fallbackName) {
  const response = await call("GET", path, { headers: { Accept: mediaType } });
  const bytes = await response.arrayBuffer();
  const disposition = response.headers.get("Content-Disposition") || "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] || /filename=([^;\s]+)/.exec(disposition)?.[1] || fallbackName;
  const url = URL.createObjectURL(new Blob([bytes], { type: response.headers.get("Content-Type") || mediaType }));
  return { name, url, size: bytes.byteLength, bytes, headers: response.headers };
}

export async function getJson(path, query) {
  return (await call("GET", path, { query })).json();
}

// Every item of a cursor-paginated list, following nextCursor at the API's largest page: for views
// that sort or draw a whole list (a version's findings, its scan history, the images to choose
// from). `key` names the list in the body; `first` is the first page's body, for the fields that
// describe the whole list (counts, scan, version).
export async function getAllPages(path, query, key) {
  const first = await getJson(path, { ...query, limit: 200 });
  const items = [...(first[key] || [])];
  for (let cursor = first.nextCursor; cursor; ) {
    const next = await getJson(path, { ...query, limit: 200, cursor });
    items.push(...(next[key] || []));
    cursor = next.nextCursor;
  }
  return { first, items };
}

export async function sendJson(method, path, body) {
  const response = await call(method, path, { body });
  return response.status === 204 ? null : response.json();
}

// The links of e-mail channels' mails (confirm, unsubscribe): the token in the path is the
// credential, so no session goes with them.
export async function postLink(path) {
  return (await send("POST", path, { auth: false })).json();
}

async function loadMe() {
  const me = await getJson("/api/auth/me");
  session.set({ ...session.get(), me, user: { id: me.id, email: me.email, role: me.role } });
}

// Sign-in and set-up answer with a session, like refresh; then the person's account is read. The
// reply, for what only a sign-in carries (recovery codes).
async function start(path, tenant, body) {
  const response = await send("POST", path, { body, tenant, headers: kCookieSessionHeader, auth: false });
  const reply = await response.json();
  adopt(tenant, reply);
  await loadMe();
  return reply;
}

// `factor`: {code} or {recoveryCode} for a person with a second factor (second_factor.jsx).
export const signIn = (tenant, email, password, factor = {}) => start("/api/auth/login", tenant, { email, password, ...factor });
export const completeSetup = (tenant, token, password) => start("/api/auth/setup", tenant, { token, password });

// Single sign-on (docs/sso.md). The tenant's provider as the sign-in page names it, or null when
// the tenant has none (the API's 404 SSO_NOT_CONFIGURED).
export async function ssoProvider(tenant) {
  const reply = await (await send("GET", "/api/auth/oidc/provider", { query: { tenant }, auth: false })).json();
  return reply.configured ? reply : null;
}

// Where "Sign in with ..." goes: a navigation to the API, which sends the browser to the provider
// and, from its callback, back to `next` with the refresh cookie set.
export function ssoStartPath(tenant, next) {
  return "/api/auth/oidc/start?" + new URLSearchParams({ tenant, next });
}

// Before leaving for the provider: the page the callback lands on resumes the session by refreshing.
export function expectSsoSession(tenant) {
  localStorage.setItem(kTenantKey, tenant);
  localStorage.setItem(kSignedInKey, "1");
}

// At start: a reload keeps the session when the refresh cookie is still good. A single sign-on
// that failed comes back to /sign-in?ssoError=... with no session to refresh.
export async function resume() {
  if (new URLSearchParams(location.search).has("ssoError")) forget();
  if (!rememberedTenant() || !localStorage.getItem(kSignedInKey)) return false;
  try {
    await refresh();
    await loadMe();
    return true;
  } catch {
    forget();
    return false;
  }
}

export async function changePassword(currentPassword, newPassword) {
  const response = await call("POST", "/api/auth/password", { body: { currentPassword, newPassword }, headers: kCookieSessionHeader });
  adopt(session.get().tenant, await response.json());
}

export async function signOut({ everywhere = false } = {}) {
  try {
    await send("POST", "/api/auth/logout", { body: everywhere ? { everywhere: true } : {}, headers: kCookieSessionHeader });
  } finally {
    forget();
  }
}

// A second factor: a new authenticator app's secret and otpauth URI (the password proves who asks),
// and removing one's own.
export async function enrolTotp(tenant, email, password) {
  return (await send("POST", "/api/auth/totp/enrolment", { body: { email, password }, tenant, auth: false })).json();
}

export async function removeTotp() {
  await call("DELETE", "/api/auth/totp");
  await loadMe();
}
