// What every browser test uses: Debian's chromium driven headless by puppeteer-core against the
// stack tests/run-tests started (demo data loaded), a page that records every console error,
// failed request and request to another origin, signing in, axe-core, and screenshots.
//
// Environment (tests/run-tests browser sets it): ICAT_HTTPS_PORT, ICAT_DEMO_TENANT,
// ICAT_DEMO_ADMIN_EMAIL, ICAT_DEMO_ADMIN_PASSWORD, ICAT_REPO, ICAT_BUILD_DIR, and
// ICAT_SCREENSHOT_DIR (where page screenshots go; none taken when unset).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(join(process.env.ICAT_BUILD_DIR, "node", "node_modules", "noop.js"));
const puppeteer = require("puppeteer-core");
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests through tests/run-tests browser`);
  return value;
};

export const tenant = () => env("ICAT_DEMO_TENANT");
// The tenant's own host name: chromium resolves every *.localhost to loopback.
export const origin = () => `https://${tenant()}.localhost:${env("ICAT_HTTPS_PORT")}`;
export const admin = () => ({ email: env("ICAT_DEMO_ADMIN_EMAIL"), password: env("ICAT_DEMO_ADMIN_PASSWORD") });

export async function launch() {
  return puppeteer.launch({
    executablePath: process.env.ICAT_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    acceptInsecureCerts: true,  // the stack's certificate is self-signed
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run", "--disable-extensions"],
  });
}

// A page in a fresh browser context (its own cookies), watched: `problems` collects console
// errors, uncaught exceptions, failed requests and any request that leaves the console's origin.
export async function openPage(browser) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const problems = [];
  const own = new URL(origin()).origin;
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== own) {
      problems.push(`request to another origin: ${url}`);
    }
  });
  page.on("requestfailed", (request) => {
    // A download the test cancels on purpose is not a problem; anything else is.
    if (!request.failure()?.errorText?.includes("ERR_ABORTED")) {
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
    }
  });
  return { page, context, problems, expectedErrors: [] };
}

// Problems not announced by the test (a test that provokes a 401 or 409 says so first).
export function assertNoProblems(watched) {
  const unexpected = watched.problems.filter((problem) => !watched.expectedErrors.some((pattern) => pattern.test(problem)));
  assert.deepEqual(unexpected, [], "the page had problems");
}

export async function go(page, path) {
  await page.goto(origin() + path, { waitUntil: "networkidle0" });
}

// Waits for the page's main heading and returns its text.
export async function heading(page, text) {
  const handle = await page.waitForFunction(
    (want) => {
      const h1 = document.querySelector("main h1");
      return h1 && (!want || h1.textContent.includes(want)) ? h1 : null;
    },
    { timeout: 10_000 },
    text || "",
  );
  return handle.evaluate((h1) => h1.textContent);
}

// A control by its accessible name (what a screen reader announces), as a person finds it.
export async function byLabel(page, label) {
  return page.waitForSelector(`::-p-aria(${label})`, { timeout: 10_000 });
}

// A control by its role and accessible name: a "Sign in" button, a "Users" link.
export function byRole(page, role, name) {
  return page.waitForSelector(`::-p-aria([name="${name}"][role="${role}"])`, { timeout: 10_000 });
}

// Replaces a field's text as a person does: select all, type.
export async function retype(field, text) {
  await field.click();
  await field.evaluate((input) => input.select());
  await field.type(text);
}

export async function fill(page, label, value) {
  await retype(await byLabel(page, label), value);
}

export async function clickButton(page, name) {
  await (await byRole(page, "button", name)).click();
}

export async function clickLink(page, name) {
  await (await byRole(page, "link", name)).click();
}

export async function signIn(page, who = admin(), next = "") {
  await go(page, "/sign-in" + (next ? "?next=" + encodeURIComponent(next) : ""));
  await heading(page, "Sign in");
  await fill(page, "Tenant", tenant());
  await fill(page, "Email", who.email);
  await fill(page, "Password", who.password);
  await Promise.all([page.waitForFunction(() => location.pathname !== "/sign-in"), clickButton(page, "Sign in")]);
  await page.waitForSelector("header.top");
}

// The screen sizes every page is checked at: a laptop, a small window, a phone.
const kViewports = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
  { width: 375, height: 667 },
];

// axe-core on the page as it is, at each of kViewports: no serious or critical violation (a small
// screen brings its own, such as a scrolling table the keyboard cannot reach). The page's own size
// is restored after. It runs through the DevTools protocol, which the page's CSP does not govern, so
// the CSP under test stays as served.
export async function assertAccessible(page, name) {
  const own = page.viewport();
  await page.evaluate(axeSource);
  const severe = [];
  try {
    for (const viewport of kViewports) {
      await page.setViewport(viewport);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      for (const violation of result.violations) {
        if (violation.impact !== "serious" && violation.impact !== "critical") continue;
        const nodes = violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ");
        severe.push(`${viewport.width}x${viewport.height}: ${violation.id} (${violation.impact}): ${nodes}`);
      }
    }
  } finally {
    await page.setViewport(own);
  }
  assert.deepEqual(severe, [], `axe-core on ${name}`);
}

// A screenshot of the page for docs/console/ (when ICAT_SCREENSHOT_DIR is set).
export async function screenshot(page, name) {
  const dir = process.env.ICAT_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

// A session of the test's own for the API (the page's access token is out of reach by design).
export async function apiLogin(who = admin()) {
  const response = await fetchInsecure("/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Tenant": tenant() },
    body: JSON.stringify(who),
  });
  assert.equal(response.status, 200, "API sign-in");
  return (await response.json()).accessToken;
}

// The stack's plain-HTTP loopback port: node's fetch would refuse the self-signed certificate.
export function fetchInsecure(path, options = {}) {
  return fetch(`http://127.0.0.1:${env("ICAT_HTTP_PORT")}${path}`, options);
}

// A user of the demo tenant made by the operator's tool (icatctl, the password on stdin), for the
// tests that need a viewer or a user. Returns { email, password }.
export function createUser(role, email = `${role}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@demo.test`) {
  const password = "browser-test-" + Math.random().toString(36).slice(2) + "-pass";
  const made = spawnSync(join(env("ICAT_BUILD_DIR"), "bin", "icatctl"), ["user", "create", "--tenant", tenant(), "--email", email, "--role", role], {
    input: password + "\n",
    encoding: "utf8",
  });
  assert.equal(made.status, 0, `icatctl user create: ${made.stderr}`);
  return { email, password };
}

// The portal API as a script would call it, with a session of its own (the page's token lives in
// the console's memory, out of reach on purpose).
export async function api(token, method, path, body) {
  const response = await fetchInsecure(path, {
    method,
    headers: { Authorization: "Bearer " + token, "X-Tenant": tenant(), ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, headers: response.headers, body: response.status === 204 ? null : await response.arrayBuffer() };
}

export const json = (reply) => JSON.parse(Buffer.from(reply.body).toString("utf8"));

// A GET of the portal API that must answer 200: its JSON.
export async function apiJson(token, path) {
  const reply = await api(token, "GET", path);
  assert.equal(reply.status, 200, `GET ${path}`);
  return json(reply);
}

// The demo data's nginx image, whose two versions the catalogue and compare tests walk through.
export async function demoNginx(token) {
  const { images } = await apiJson(token, "/api/docker-images?q=nginx");
  const nginx = await apiJson(token, `/api/docker-images/${images[0].id}`);
  assert.equal(nginx.versions.length, 2, "the demo data has two versions of nginx");
  return nginx;
}
