// Single sign-on as a person meets it: the console's "Sign in with <provider>", the provider's own
// login page, and back in the console signed in with the role the person's groups map to; a person
// whose groups map to nothing comes back to a sign-in page that says why; a tenant that requires
// single sign-on keeps the password form behind "Break-glass sign-in"; the admin's page shows the
// configuration without its secret. The provider is the real one (tests/oidc/provider.mjs on npm
// oidc-provider), started here on loopback; the stack allows it (ICAT_OIDC_ALLOW_HTTP,
// ICAT_OIDC_ALLOW_PRIVATE_CIDRS in tests/run-tests).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import {
  admin,
  api,
  apiLogin,
  assertAccessible,
  assertNoProblems,
  byLabel,
  byRole,
  clickButton,
  env,
  fill,
  go,
  heading,
  json,
  launch,
  openPage,
  origin,
  screenshot,
  signIn,
} from "./support.mjs";

const kDisplayName = "Test provider";
const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const people = {
  admin: { sub: `admin-${stamp}`, email: `sso-admin-${stamp}@demo.test`, password: "provider-pass-1", groups: ["icat-admins", "staff"] },
  outsider: { sub: `outsider-${stamp}`, email: `sso-outsider-${stamp}@demo.test`, password: "provider-pass-2", groups: ["contractors"] },
};
const client = { client_id: `icat-browser-${stamp}`, client_secret: `secret-${stamp}`, redirect_uris: [`${origin()}/api/auth/oidc/callback`] };

let browser;
let provider;
let issuer;
let workDir;
let token;

// node tests/oidc/provider.mjs on a free port; resolves with its issuer once it says "ready".
function startProvider(configPath) {
  const child = spawn(process.execPath, [join(env("ICAT_REPO"), "tests/oidc/provider.mjs"), "--port", "0", "--config", configPath], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the test provider exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line.startsWith("ready ")) resolve({ child, issuer: line.slice("ready ".length) });
    });
  });
}

const configure = (changes = {}) =>
  api(token, "PUT", "/api/sso", {
    issuer,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    displayName: kDisplayName,
    roleMapping: { "icat-admins": "admin", "icat-viewers": "viewer" },
    defaultRole: "refuse",
    ...changes,
  });

before(async () => {
  workDir = mkdtempSync(join(tmpdir(), "icat-sso-browser-"));
  const configPath = join(workDir, "provider.json");
  writeFileSync(configPath, JSON.stringify({ clients: [client], accounts: Object.values(people) }));
  ({ child: provider, issuer } = await startProvider(configPath));
  token = await apiLogin();
  const saved = await configure();
  assert.equal(saved.status, 200, `PUT /api/sso: ${Buffer.from(saved.body || []).toString()}`);
  browser = await launch();
});

after(async () => {
  // The other tests find the demo tenant as it was: passwords only.
  if (token) await api(token, "DELETE", "/api/sso");
  await browser?.close();
  provider?.kill("SIGTERM");
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

// A page that may leave for the provider: its requests are expected, everything else is watched.
async function openSsoPage() {
  const watched = await openPage(browser);
  watched.expectedErrors.push(new RegExp(`^request to another origin: ${issuer.replace(/[.]/g, "\\.")}/`));
  return watched;
}

// From the console's sign-in page through the provider's login form; resolves once the browser is
// back on the console's origin.
async function signInThroughProvider(page, person, next) {
  await go(page, "/sign-in?next=" + encodeURIComponent(next));
  await heading(page, "Sign in");
  const link = await byRole(page, "link", `Sign in with ${kDisplayName}`);
  await Promise.all([page.waitForNavigation(), link.click()]);
  assert.ok(page.url().startsWith(issuer + "/interaction/"), `the provider's login page, not ${page.url()}`);
  await fill(page, "Email", person.email);
  await fill(page, "Password", person.password);
  await Promise.all([page.waitForFunction((own) => location.origin === own, { timeout: 15_000 }, origin()), clickButton(page, "Sign in")]);
}

test("a person signs in through the provider's login page and lands where they were going, with the role of their group", async () => {
  const watched = await openSsoPage();
  const { page } = watched;
  await go(page, "/sign-in");
  await heading(page, "Sign in");
  await byRole(page, "link", `Sign in with ${kDisplayName}`);
  await assertAccessible(page, "sign-in with single sign-on");
  await screenshot(page, "sign-in-sso");

  await signInThroughProvider(page, people.admin, "/users");
  await page.waitForSelector("header.top");
  await heading(page, "Users");
  assert.equal(new URL(page.url()).pathname, "/users");
  const who = await page.$eval("header.top .who", (element) => element.textContent);
  assert.match(who, new RegExp(people.admin.email.replace(/[.]/g, "\\.")));
  assert.match(who, /admin/, "icat-admins maps to admin");
  // The users page marks who signs in with SSO.
  const row = await page.waitForSelector(`::-p-aria([name="Role of ${people.admin.email}"])`);
  assert.match(await row.evaluate((select) => select.closest("tr").querySelector("th").textContent), /SSO/);
  // A reload keeps the session (the refresh cookie the callback set).
  await page.reload({ waitUntil: "networkidle0" });
  await heading(page, "Users");
  assertNoProblems(watched);
  await watched.context.close();
});

test("a person whose groups map to no role comes back to the sign-in page, told why", async () => {
  const watched = await openSsoPage();
  const { page } = watched;
  await signInThroughProvider(page, people.outsider, "/images");
  await page.waitForFunction(() => location.pathname === "/sign-in");
  assert.equal(new URL(page.url()).searchParams.get("ssoError"), "SSO_ACCESS_REFUSED");
  const alert = await page.waitForSelector(".error", { timeout: 10_000 });
  assert.match(await alert.evaluate((element) => element.textContent), /your groups give you no role here/);
  assert.equal(await page.$("header.top"), null, "not signed in");
  await assertAccessible(page, "sign-in after a refused single sign-on");
  assertNoProblems(watched);
  await watched.context.close();
});

test("a tenant that requires single sign-on keeps the password form behind Break-glass sign-in, which still works", async () => {
  const required = await configure({ required: true, breakGlassEmail: admin().email });
  assert.equal(required.status, 200, Buffer.from(required.body || []).toString());
  try {
    const watched = await openSsoPage();
    const { page } = watched;
    await go(page, "/sign-in");
    await byRole(page, "link", `Sign in with ${kDisplayName}`);
    const password = await page.$('input[type="password"]');
    // Folded inside a closed <details>: the browser renders it not at all (puppeteer's isVisible
    // looks at box and style only, so it is asked through the DOM's own checkVisibility).
    assert.equal(await password.evaluate((input) => input.checkVisibility()), false, "the password field is folded away");
    await assertAccessible(page, "sign-in when single sign-on is required");
    await screenshot(page, "sign-in-sso-required");
    await (await page.waitForSelector("summary")).click();
    await fill(page, "Email", admin().email);
    await fill(page, "Password", admin().password);
    await Promise.all([page.waitForFunction(() => location.pathname !== "/sign-in"), clickButton(page, "Sign in")]);
    await page.waitForSelector("header.top");
    assertNoProblems(watched);
    await watched.context.close();
  } finally {
    await configure({ required: false, breakGlassEmail: null });
  }
});

test("the admin's single sign-on page shows the configuration and the redirect URI, never the secret", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page, admin(), "/sso");
  await heading(page, "Single sign-on");
  const issuerField = await byLabel(page, "Issuer URL");
  assert.equal(await issuerField.evaluate((input) => input.value), issuer);
  const secretField = await byLabel(page, "Client secret");
  assert.equal(await secretField.evaluate((input) => input.value), "", "the secret is never shown");
  const redirect = await byRole(page, "textbox", "Redirect URI");
  assert.equal(await redirect.evaluate((input) => input.value), `${origin()}/api/auth/oidc/callback`);
  const stored = json(await api(token, "GET", "/api/sso"));
  assert.equal(stored.clientSecretSet, true);
  assert.equal("clientSecret" in stored, false);
  // A change saved from the form (the secret left empty: the stored one is kept) reaches the API.
  await fill(page, "Display name", "Test provider (renamed)");
  await clickButton(page, "Save");
  await page.waitForSelector(".success", { timeout: 15_000 });
  const renamed = json(await api(token, "GET", "/api/sso"));
  assert.equal(renamed.displayName, "Test provider (renamed)");
  assert.equal(renamed.clientSecretSet, true);
  await assertAccessible(page, "single sign-on settings");
  await screenshot(page, "sso");
  await configure();
  assertNoProblems(watched);
  await watched.context.close();
});
