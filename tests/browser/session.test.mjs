// Signing in, staying signed in across a reload on a deep link, signing out, and the pages'
// security headers: what every other test stands on.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { admin, assertAccessible, assertNoProblems, clickButton, fetchInsecure, go, heading, launch, openPage, origin, screenshot, signIn, tenant } from "./support.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

test("sign in, reload on a deep link and stay signed in, then sign out", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  await go(page, "/sign-in");
  await heading(page, "Sign in");
  // The tenant comes from the host name (demo.localhost).
  assert.equal(await page.$eval("::-p-aria(Tenant)", (input) => input.value), tenant());
  await assertAccessible(page, "sign-in");
  await screenshot(page, "sign-in");

  await signIn(page, undefined, "/watches");
  assert.equal(new URL(page.url()).pathname, "/watches", "sign-in goes on to the page asked for");
  await page.reload({ waitUntil: "networkidle0" });
  await heading(page, "CVE watches");
  assert.equal(new URL(page.url()).pathname, "/watches", "a reload stays on the page, signed in");

  // No token in web storage; the refresh token is a cookie script cannot read.
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.doesNotMatch(storage, /eyJ|refresh|token/i);
  assert.equal(await page.evaluate(() => document.cookie), "");
  const cookies = await page.cookies(origin() + "/api/auth/refresh");  // the cookie goes to /api/auth only
  const refresh = cookies.find((cookie) => cookie.name === "icat_refresh");
  assert.ok(refresh, "the refresh cookie is set");
  assert.equal(refresh.httpOnly, true);
  assert.equal(refresh.secure, true);
  assert.equal(refresh.sameSite, "Strict");
  assert.equal(refresh.path, "/api/auth");

  await clickButton(page, "Sign out");
  await page.waitForFunction(() => location.pathname === "/sign-in");
  // Signing out ended the session itself: the cookie is gone and its token is refused.
  assert.equal((await page.cookies(origin() + "/api/auth/refresh")).some((cookie) => cookie.name === "icat_refresh"), false);
  const reused = await fetchInsecure("/api/auth/refresh", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Tenant": tenant() },
    body: JSON.stringify({ refreshToken: refresh.value }),
  });
  assert.equal(reused.status, 401, "the signed-out session's refresh token is refused");
  await page.reload({ waitUntil: "networkidle0" });
  await heading(page, "Sign in");
  await go(page, "/images");
  await page.waitForFunction(() => location.pathname === "/sign-in");
  assertNoProblems(watched);
  await watched.context.close();
});

test("signing in works from the keyboard alone, with the focus always visible", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  await go(page, "/sign-in");
  await heading(page, "Sign in");
  const { email, password } = admin();
  // The page puts the focus on its heading; from there, Tab walks the form in order.
  const focused = async () => page.evaluate(() => document.activeElement.labels?.[0]?.textContent || document.activeElement.textContent);
  await page.keyboard.press("Tab");
  assert.equal(await focused(), "Tenant");
  await page.keyboard.press("Tab");
  assert.equal(await focused(), "Email");
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, "none", "the focused field shows it");
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  assert.equal(await focused(), "Password");
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => location.pathname === "/images");
  await heading(page, "Images");
  assertNoProblems(watched);
  await watched.context.close();
});

test("a page answers with a strict CSP and no framing", async () => {
  const watched = await openPage(browser);
  const response = await watched.page.goto(origin() + "/images", { waitUntil: "networkidle0" });
  const headers = response.headers();
  const csp = headers["content-security-policy"];
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
  assert.equal(headers["x-frame-options"], "DENY");
  assert.match(headers["strict-transport-security"], /max-age=\d+/);
  assertNoProblems(watched);
  await watched.context.close();
});
