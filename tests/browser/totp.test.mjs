// Two-step sign-in as the console offers it: a person adds an authenticator app from their account
// page (QR code, key, first code, recovery codes shown once), signs out and signs in again with a
// code this test computes from the key, as an app would (RFC 6238); an admin sees who has one,
// resets it, and requires one of everybody, which makes a person without one enrol at sign-in.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { after, before, test } from "node:test";
import {
  admin,
  apiLogin,
  api,
  assertAccessible,
  assertNoProblems,
  byLabel,
  byRole,
  clickButton,
  createUser,
  fill,
  go,
  heading,
  launch,
  openPage,
  screenshot,
  signIn,
  tenant,
} from "./support.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

function base32Decode(text) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of text.toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

// The code an authenticator app shows `offset` seconds from now.
function totp(secret, offset = 0) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor((Date.now() / 1000 + offset) / 30)));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const at = mac[19] & 15;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

// The sign-in form up to its second step.
async function signInUpToSecondStep(page, who) {
  await go(page, "/sign-in");
  await heading(page, "Sign in");
  await fill(page, "Tenant", tenant());
  await fill(page, "Email", who.email);
  await fill(page, "Password", who.password);
  await clickButton(page, "Sign in");
}

// The enrolment's key as shown, after its QR code is drawn.
async function shownKey(page) {
  await page.waitForSelector("svg.qr path");
  const key = await (await byLabel(page, "Key")).evaluate((input) => input.value);
  assert.match(key, /^[A-Z2-7]{32}$/);
  return key;
}

// Confirms an enrolment with its first code; the recovery codes shown.
async function confirmWithCode(page, key) {
  await fill(page, "Code", totp(key));
  await clickButton(page, "Confirm and sign in");
  const region = await byRole(page, "region", "Recovery codes");
  const codes = await region.$$eval("li code", (items) => items.map((item) => item.textContent));
  assert.equal(codes.length, 10);
  return codes;
}

test("a person adds an authenticator app on the account page, signs out, and signs in with its code", async () => {
  const who = createUser("user");
  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page, who, "/account");
  await heading(page, "Your account");
  await clickButton(page, "Add an authenticator app");
  await fill(page, "Your password", who.password);
  await clickButton(page, "Continue");
  const key = await shownKey(page);
  await assertAccessible(page, "account: enrolment");
  await screenshot(page, "account-two-step");
  const codes = await confirmWithCode(page, key);
  assert.ok(codes.every((code) => /^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/.test(code)), codes.join(" "));
  await clickButton(page, "I have kept them");
  await page.waitForFunction(() => document.body.textContent.includes("On: signing in asks for a code"));

  await clickButton(page, "Sign out");
  await page.waitForFunction(() => location.pathname === "/sign-in");
  watched.expectedErrors.push(/status of 401/);  // SECOND_FACTOR_REQUIRED, the cue for the code step
  await signInUpToSecondStep(page, who);
  await heading(page, "Sign in");
  await page.waitForSelector("::-p-aria(Two-step sign-in)");
  await assertAccessible(page, "sign-in: code step");
  await fill(page, "Code", totp(key, 30));  // the next step's: the first one was used to confirm
  await Promise.all([page.waitForFunction(() => location.pathname !== "/sign-in"), clickButton(page, "Sign in")]);
  await page.waitForSelector("header.top");
  assertNoProblems(watched);
  await watched.context.close();
});

test("an admin sees who has a second factor, resets it, and requiring one makes a person enrol at sign-in", async () => {
  const token = await apiLogin();
  const who = createUser("viewer");
  const watched = await openPage(browser);
  const { page } = watched;
  try {
    await signIn(page, admin(), "/users");
    await heading(page, "Users");
    await (await byLabel(page, "Require a second factor")).click();
    await page.waitForFunction(() => document.querySelector("input[type=checkbox]:checked"));
    const policy = await api(token, "GET", "/api/sign-in-policy");
    assert.equal(JSON.parse(Buffer.from(policy.body).toString()).totpRequired, true);

    // The person signs in in a browser of their own: enrolment first, then recovery codes, then in.
    const person = await openPage(browser);
    person.expectedErrors.push(/status of 403/);  // SECOND_FACTOR_ENROLMENT_REQUIRED, the cue to enrol
    await signInUpToSecondStep(person.page, who);
    const key = await shownKey(person.page);
    await confirmWithCode(person.page, key);
    await Promise.all([person.page.waitForFunction(() => location.pathname !== "/sign-in"), clickButton(person.page, "I have kept them")]);
    await person.page.waitForSelector("header.top");
    assertNoProblems(person);
    await person.context.close();

    // The admin's list shows it on, and the admin resets it.
    await page.reload({ waitUntil: "networkidle0" });
    await heading(page, "Users");
    const select = await page.waitForSelector(`::-p-aria([name="Role of ${who.email}"])`);
    const row = await select.evaluateHandle((element) => element.closest("tr"));
    assert.ok(await row.evaluate((tr) => [...tr.cells].some((cell) => cell.textContent === "on")), "two-step shown on");
    const reset = () => row.evaluate((tr) => [...tr.querySelectorAll("button")].find((b) => b.textContent === "Reset two-step sign-in").click());
    await reset();
    await reset();  // the confirmation's button
    await page.waitForFunction(
      (email) => [...document.querySelectorAll("tr")].some((tr) => tr.textContent.includes(email) && !tr.textContent.includes("Reset two-step")),
      {},
      who.email,
    );
    assertNoProblems(watched);
  } finally {
    await api(token, "PUT", "/api/sign-in-policy", { totpRequired: false });
    await watched.context.close();
  }
});
