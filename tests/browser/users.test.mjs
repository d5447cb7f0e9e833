// A tenant's people and one's own account, as the console serves them: an admin adds someone and
// hands over the one-time set-up link, which works once; the last admin cannot demote themselves;
// a viewer finds the users page closed; changing one's password and signing out everywhere end
// the other sessions.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  admin,
  apiLogin,
  assertAccessible,
  assertNoProblems,
  byRole,
  clickButton,
  createUser,
  fetchInsecure,
  fill,
  go,
  heading,
  launch,
  openPage,
  origin,
  screenshot,
  signIn,
  tenant,
} from "./support.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

const newEmail = (what) => `${what}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@demo.test`;

// Opens a set-up link in a browser of its own and chooses a password; returns the page.
async function useSetupLink(link, password) {
  const watched = await openPage(browser);
  const { page } = watched;
  await page.goto(link, { waitUntil: "networkidle0" });
  await heading(page, "Set up your account");
  await fill(page, "New password", password);
  await fill(page, "New password again", password);
  await clickButton(page, "Set password and sign in");
  return watched;
}

test("an admin adds a person whose set-up link works once, then is refused", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page, admin(), "/users");
  await heading(page, "Users");
  await assertAccessible(page, "users");
  const email = newEmail("new-viewer");
  await fill(page, "Email", email);
  await page.select("::-p-aria(Role)", "viewer");
  await clickButton(page, "Add and make a set-up link");
  // The field, not the region around it (both carry the label).
  const linkField = await byRole(page, "textbox", `Set-up link for ${email}`);
  const link = await linkField.evaluate((input) => input.value);
  assert.match(link, new RegExp(`^${origin()}/setup#tenant=${tenant()}&token=[A-Za-z0-9_-]{43}$`));
  await page.waitForSelector(`::-p-aria([name="Role of ${email}"])`);
  const row = await page.$eval(`::-p-aria([name="Role of ${email}"])`, (select) => select.closest("tr").textContent);
  assert.match(row, /pending setup/);
  await screenshot(page, "users-new-link");

  // The new person sets a password through the link and is signed in, as a viewer.
  const password = "first-password-" + Date.now();
  const first = await useSetupLink(link, password);
  await first.page.waitForFunction(() => location.pathname === "/images");
  await heading(first.page, "Images");
  const who = await first.page.$eval("header.top .who", (element) => element.textContent);
  assert.match(who, new RegExp(email.replace(/[.]/g, "\\.")));
  assert.match(who, /viewer/);
  assert.equal(new URL(first.page.url()).hash, "", "the used token left the address bar");
  assertNoProblems(first);
  await first.context.close();

  // The same link a second time: refused in words, and nothing changes.
  const second = await useSetupLink(link, "another-password-" + Date.now());
  second.expectedErrors.push(/status of 401/);
  const refusal = await second.page.waitForSelector(".error", { timeout: 10_000 });
  assert.match(await refusal.evaluate((element) => element.textContent), /already used|expired|not valid/i);
  assert.equal(new URL(second.page.url()).pathname, "/setup");
  await assertAccessible(second.page, "setup refused");
  await screenshot(second.page, "setup-refused");
  assertNoProblems(second);
  await second.context.close();
  // The password chosen the first time is the one that signs in.
  assert.ok(await apiLogin({ email, password }));

  // The admin's list now shows the person as active.
  await page.reload({ waitUntil: "networkidle0" });
  await heading(page, "Users");
  const activeRow = await page.$eval(`::-p-aria([name="Role of ${email}"])`, (select) => select.closest("tr").textContent);
  assert.match(activeRow, /active/);
  await screenshot(page, "users");
  assertNoProblems(watched);
  await watched.context.close();
});

test("the last admin cannot demote themselves: the API's refusal is shown in words", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page, admin(), "/users");
  await heading(page, "Users");
  watched.expectedErrors.push(/status of 409/);
  await page.select(`::-p-aria([name="Role of ${admin().email}"])`, "viewer");
  const refusal = await page.waitForSelector(".error", { timeout: 10_000 });
  assert.match(await refusal.evaluate((element) => element.textContent), /admin/i);
  assert.match(await refusal.evaluate((element) => element.textContent), /request id/);
  const me = await (await fetchInsecure("/api/auth/me", { headers: { Authorization: "Bearer " + (await apiLogin()), "X-Tenant": tenant() } })).json();
  assert.equal(me.role, "admin", "still an admin");
  assertNoProblems(watched);
  await watched.context.close();
});

test("a viewer finds the users page closed with the reason and no link to it", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page, createUser("viewer"), "/users");
  await heading(page, "Users");
  const text = await page.$eval("main", (element) => element.textContent);
  assert.match(text, /Only a tenant admin can see the tenant's users/);
  assert.equal(await page.$("main form"), null, "no form");
  const links = await page.$$eval("header.top nav a", (anchors) => anchors.map((anchor) => anchor.textContent));
  assert.ok(!links.includes("Users") && !links.includes("API keys") && !links.includes("Audit log"), links.join(", "));
  await assertAccessible(page, "users closed");
  await screenshot(page, "viewer-users-closed");
  assertNoProblems(watched);
  await watched.context.close();
});

test("changing one's password keeps this session and ends the others; signing out everywhere ends this one", async () => {
  const person = createUser("user");
  const other = await openPage(browser);
  await signIn(other.page, person, "/images");
  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page, person, "/account");
  await heading(page, "Your account");
  await assertAccessible(page, "account");
  await screenshot(page, "account");

  // A wrong current password: refused in words, once; the session is fine, so nothing refreshes it.
  const sent = [];
  page.on("request", (request) => sent.push(new URL(request.url()).pathname));
  watched.expectedErrors.push(/status of 401/);
  await fill(page, "Current password", "not-the-password-at-all");
  await fill(page, "New password", person.password + "-unused");
  await fill(page, "New password again", person.password + "-unused");
  await clickButton(page, "Change password");
  const refusal = await page.waitForSelector("main .error", { timeout: 10_000 });
  assert.match(await refusal.evaluate((element) => element.textContent), /password/i);
  assert.deepEqual(sent.filter((path) => path.startsWith("/api/auth/")), ["/api/auth/password"]);

  const changed = person.password + "-changed";
  await fill(page, "Current password", person.password);
  await fill(page, "New password", changed);
  await fill(page, "New password again", changed);
  await clickButton(page, "Change password");
  await page.waitForSelector("::-p-text(Password changed)");
  // This session goes on across a reload; the other one is signed out at its next refresh.
  await page.reload({ waitUntil: "networkidle0" });
  await heading(page, "Your account");
  other.expectedErrors.push(/status of 401/);
  await other.page.reload({ waitUntil: "networkidle0" });
  await other.page.waitForFunction(() => location.pathname === "/sign-in");
  assertNoProblems(other);
  await other.context.close();
  assert.ok(await apiLogin({ email: person.email, password: changed }), "the new password signs in");

  await clickButton(page, "Sign out everywhere");
  await clickButton(page, "Sign out everywhere");  // the confirmation
  await page.waitForFunction(() => location.pathname === "/sign-in");
  await page.reload({ waitUntil: "networkidle0" });
  await heading(page, "Sign in");
  await go(page, "/account");
  await page.waitForFunction(() => location.pathname === "/sign-in");
  assertNoProblems(watched);
  await watched.context.close();
});
