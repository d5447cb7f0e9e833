// The notification channels' pages (docs/notifications.md) as an admin uses them: a Slack channel
// made with a URL no page shows again, edited without losing it, disabled by the dispatcher after
// its service refused three messages (real events in the outbox, a real receiver answering 404;
// the delivery log shows them), enabled again and deleted; an e-mail channel whose address confirms
// itself from the real confirmation mail, gets an event mail and unsubscribes once; and the pages
// an e-mail's links open without a session.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import {
  api,
  apiLogin,
  assertAccessible,
  assertNoProblems,
  byLabel,
  byRole,
  clickButton,
  clickLink,
  createUser,
  env,
  fill,
  go,
  heading,
  json,
  launch,
  openPage,
  screenshot,
  signIn,
  tenant,
} from "./support.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

// A channel's service on loopback (the test stack lets the dispatcher reach 127.0.0.1 over http):
// answers the scripted statuses in turn, then 200.
async function startService(statuses = []) {
  const received = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push(body);
      response.writeHead(statuses.shift() || 200).end("ok");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/services/T000/B000/secret`, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

// One statement as the database's owner, as the integration tests write outbox events.
function sql(statement) {
  const run = spawnSync("psql", ["-X", "-tA", "-v", "ON_ERROR_STOP=1", "-c", statement, env("ICAT_PG_ADMIN_DSN")], { encoding: "utf8" });
  assert.equal(run.status, 0, `psql: ${run.stderr}`);
  return run.stdout.trim();
}

// A vulnerability.detected event of the demo tenant in the outbox, as ingest writes it.
function emitDetected() {
  const data = {
    image: { id: "00000000-0000-4000-8000-000000000001", name: "demo" },
    version: { id: "00000000-0000-4000-8000-000000000002", tag: "1.0", digest: "sha256:" + "a".repeat(64) },
    scan: { id: "00000000-0000-4000-8000-000000000004", scanner: "trivy 0.50.0", scannedAt: "2026-01-01T00:00:00Z" },
    vulnerabilities: [{ id: "CVE-2024-3094", severity: "critical", package: "xz-utils", fixState: "fixed", epss: null, kev: null }],
  };
  sql(`INSERT INTO events (tenant_id, type, payload) SELECT id, 'vulnerability.detected', '${JSON.stringify(data)}'::jsonb FROM tenants WHERE subdomain = '${tenant()}'`);
}

async function check(page, name) {
  const box = await byRole(page, "checkbox", name);
  if (!(await box.evaluate((input) => input.checked))) await box.click();
}

async function mainText(page) {
  return page.$eval("main", (main) => main.innerText);
}

async function waitForText(page, text, timeout = 10_000) {
  await page.waitForFunction((want) => document.querySelector("main")?.innerText.includes(want), { timeout }, text);
}

async function rowWith(page, texts) {
  const row = await page.waitForFunction(
    (wants) => [...document.querySelectorAll("main tbody tr")].find((tr) => wants.every((want) => tr.innerText.includes(want))) || null,
    { timeout: 10_000 },
    texts,
  );
  return row.evaluate((tr) => tr.innerText);
}

// Every field's value in the page: the secret URL must be in none of them.
const fieldValues = (page) => page.$$eval("input, textarea", (fields) => fields.map((field) => field.value).join(" "));

async function channelNamed(token, name) {
  return json(await api(token, "GET", "/api/notification-channels?limit=200")).channels.find((channel) => channel.name === name);
}

test("an admin makes a Slack channel whose URL is never shown, edits it, sees it disabled with the reason, enables it again and deletes it", async () => {
  const service = await startService([404, 404, 404]);
  const watched = await openPage(browser);
  const { page } = watched;
  const name = `#security-${Date.now()}`;
  try {
    await signIn(page);
    await clickLink(page, "Notifications");
    await heading(page, "Notifications");
    await (await byRole(page, "combobox", "Type")).select("slack");
    await fill(page, "Name", name);
    await fill(page, "Incoming webhook URL", service.url);
    await check(page, "vulnerability.detected: a scan found vulnerabilities the previous one did not have");
    await (await byRole(page, "combobox", "Minimum severity")).select("high");
    await clickButton(page, "Create channel");
    await waitForText(page, `Channel ${name} created.`);
    const row = await rowWith(page, [name, "slack", "127.0.0.1", "active"]);
    assert.match(row, /vulnerability\.detected/);
    assert.match(row, /high/);
    assert.match(row, /every image/);
    assert.ok(!(await mainText(page)).includes("/services/T000") && !(await fieldValues(page)).includes("/services/T000"), "the URL is not shown");
    await assertAccessible(page, "notifications");
    await screenshot(page, "notifications");

    await clickLink(page, name);
    await heading(page, `Notification channel ${name}`);
    const urlField = await byLabel(page, "New incoming webhook URL");
    assert.equal(await urlField.evaluate((input) => input.value), "", "the edit form never shows the URL back");
    assert.ok(!(await fieldValues(page)).includes("/services/T000"));
    await check(page, "scan.completed: a licensed image version was scanned");
    await clickButton(page, "Save changes");
    await waitForText(page, "Saved.");
    const token = await apiLogin();
    let stored = await channelNamed(token, name);
    assert.deepEqual([...stored.events].sort(), ["scan.completed", "vulnerability.detected"], "the edit is stored");
    assert.equal(stored.urlHost, "127.0.0.1");

    // The URL kept through the edit: the messages reach the service, which refuses three.
    for (let i = 0; i < 3; i++) emitDetected();
    for (let tries = 0; tries < 100 && stored.active; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      stored = await channelNamed(token, name);
    }
    assert.equal(stored.active, false, "three refusals disable the channel");
    assert.equal(service.received.length, 3);
    assert.ok(JSON.parse(service.received[0]).blocks, "a Block Kit message");

    await clickLink(page, "All channels");
    await heading(page, "Notifications");
    assert.match(await rowWith(page, [name, "disabled"]), /refused 3 messages in a row \(last: HTTP 404\)/, "the list says why");
    await clickLink(page, name);
    await heading(page, `Notification channel ${name}`);
    await waitForText(page, "Fix the cause at the receiving service");
    assert.match(await rowWith(page, ["vulnerability.detected", "failed"]), /\b404\b/, "the delivery log shows the refusals");
    assert.equal(await page.$$eval("main tbody tr", (rows) => rows.length), 3);
    await assertAccessible(page, "notification-channel");
    await screenshot(page, "notification-channel");
    await clickButton(page, "Enable again");
    await page.waitForFunction(() => document.querySelector("dl.facts")?.innerText.includes("active"), { timeout: 10_000 });
    stored = await channelNamed(token, name);
    assert.equal(stored.active, true);
    assert.equal(stored.disabledReason, null);
    assert.equal(stored.urlHost, "127.0.0.1", "enabling keeps the URL");

    await clickButton(page, "Delete channel");
    await clickButton(page, "Yes, delete");
    await heading(page, "Notifications");
    await page.waitForSelector("main table, main .empty");
    assert.ok(!(await mainText(page)).includes(name), "the deleted channel is gone from the list");
    assert.equal(await channelNamed(token, name), undefined, "and from the API");
    assertNoProblems(watched);
  } finally {
    await watched.context.close();
    await service.close();
  }
});

test("an e-mail channel takes addresses and a digest instead of a URL", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page);
  await clickLink(page, "Notifications");
  await heading(page, "Notifications");
  await (await byRole(page, "combobox", "Type")).select("email");
  await byLabel(page, "Addresses");
  await byRole(page, "combobox", "Digest");
  assert.equal(await page.$("::-p-aria(Incoming webhook URL)"), null, "no URL for e-mail");
  await assertAccessible(page, "notifications-email-form");
  assertNoProblems(watched);
  await watched.context.close();
});

test("a viewer finds no link to the channels and their page closed with the reason", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page, createUser("viewer"));
  const links = await page.$$eval("header.top nav a", (anchors) => anchors.map((a) => a.innerText));
  assert.ok(links.includes("Webhooks") && !links.includes("Notifications"), links.join(", "));
  // No link for this person: the page reached as a shared link is, without a reload.
  await page.evaluate(() => {
    history.pushState(null, "", "/notifications");
    dispatchEvent(new PopStateEvent("popstate"));
  });
  await heading(page, "Notifications");
  await waitForText(page, "Only a tenant admin can see the tenant's notification channels.");
  assert.equal(await page.$("main form"), null, "no form the API would refuse");
  assertNoProblems(watched);
  await watched.context.close();
});

// The links of e-mails open these pages without a session; opening changes nothing, the button
// posts, and a link that is unknown (or used, or expired: the API answers all three alike) says so.
for (const [path, title, button, words] of [
  ["confirm", "Confirm your address", "Confirm", "was used already, has expired (links last 7 days) or is unknown"],
  ["unsubscribe", "Unsubscribe", "Unsubscribe", "was used already or is unknown"],
]) {
  test(`the ${path} page of an e-mail's link needs no sign-in and says plainly that a used link did nothing`, async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    watched.expectedErrors.push(/the server responded with a status of 404/);
    await go(page, `/notifications/${path}/${randomBytes(32).toString("base64url")}`);
    assert.equal(await heading(page, title), title);
    assert.match(await mainText(page), new RegExp(`Tenant: ${tenant()}`));
    assert.equal(await page.$("header.top"), null, "no navigation: nobody is signed in");
    await assertAccessible(page, `notifications-${path}`);
    await clickButton(page, button);
    await waitForText(page, words);
    assertNoProblems(watched);
    await watched.context.close();
  });
}

// ------------------------------------------------------------------ e-mail (the stack's mail catcher)

// Each message the stack's mail catcher took ($ICAT_STACK_DIR/mail/*.eml, tools/mail-catcher),
// read as MIME by tests/integration/read-mail: {to, subject, listUnsubscribe, parts: {type: text}}.
function mails() {
  const dir = join(env("ICAT_STACK_DIR"), "mail");
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".eml")).map((name) => join(dir, name)) : [];
  if (files.length === 0) return [];
  const read = spawnSync("python3", [join(env("ICAT_REPO"), "tests", "integration", "read-mail"), ...files], { encoding: "utf8" });
  assert.equal(read.status, 0, `read-mail: ${read.stderr}`);
  return read.stdout.trim().split("\n").map((line) => JSON.parse(line));
}

async function waitForMail(wanted, what) {
  for (let tries = 0; tries < 100; tries++) {
    const found = mails().find(wanted);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`no ${what} arrived at the mail catcher`);
}

test("an e-mail channel's address confirms itself from its mail's link, gets an event mail, and unsubscribes once, without a session", async () => {
  const address = `ops-${Date.now()}@example.test`;
  const name = `ops-mail-${Date.now()}`;
  const admin = await openPage(browser);
  await signIn(admin.page);
  await clickLink(admin.page, "Notifications");
  await heading(admin.page, "Notifications");
  await (await byRole(admin.page, "combobox", "Type")).select("email");
  await fill(admin.page, "Name", name);
  await fill(admin.page, "Addresses", address);
  await check(admin.page, "vulnerability.detected: a scan found vulnerabilities the previous one did not have");
  await clickButton(admin.page, "Create channel");
  await waitForText(admin.page, `Channel ${name} created. Each address gets a mail to confirm it first.`);
  await rowWith(admin.page, [name, address, "pending"]);
  await assertAccessible(admin.page, "notifications-email");
  assertNoProblems(admin);

  const confirmation = await waitForMail((mail) => mail.to.includes(address), "confirmation mail");
  const link = /https:\/\/\S+\/notifications\/confirm\/[A-Za-z0-9_-]+/.exec(confirmation.parts["text/plain"])?.[0];
  assert.ok(link, confirmation.parts["text/plain"]);
  const reader = await openPage(browser);  // the address's owner: no session
  await reader.page.goto(link, { waitUntil: "networkidle0" });
  await heading(reader.page, "Confirm your address");
  await clickButton(reader.page, "Confirm");
  await waitForText(reader.page, `${address} is confirmed: it gets the messages of the channel ${name} from now on.`);
  assertNoProblems(reader);
  const token = await apiLogin();
  assert.deepEqual((await channelNamed(token, name)).addresses, [{ address, state: "confirmed" }]);

  // The event mail: its HTML part, rendered for docs/notifications.md.
  emitDetected();
  const eventMail = await waitForMail((mail) => mail.to.includes(address) && mail.listUnsubscribe, "event mail");
  assert.match(eventMail.subject, /CVE-2024-3094/);
  const mailContext = await browser.createBrowserContext();
  const view = await mailContext.newPage();
  await view.setViewport({ width: 720, height: 600 });
  await view.setContent(eventMail.parts["text/html"]);
  assert.match(await view.$eval("body", (body) => body.innerText), /CVE-2024-3094/);
  await screenshot(view, "message-email");
  await mailContext.close();

  // The channel's delivery log says which address each mail went to.
  await go(admin.page, `/notifications/${encodeURIComponent((await channelNamed(token, name)).id)}`);
  await heading(admin.page, `Notification channel ${name}`);
  assert.ok(
    await admin.page.$$eval("main thead th", (cells) => cells.some((cell) => cell.innerText === "Sent to")),
    "the log has a Sent to column",
  );
  await rowWith(admin.page, ["vulnerability.detected", address]);
  await rowWith(admin.page, ["notification_address.confirm", address]);
  assertNoProblems(admin);

  // One-click unsubscribe through the console's page (the API's GET sends people there).
  const unsubscribe = /\/api\/notification-addresses\/unsubscribe\/([A-Za-z0-9_-]+)/.exec(eventMail.listUnsubscribe)[1];
  reader.expectedErrors.push(/the server responded with a status of 404/);
  await go(reader.page, `/notifications/unsubscribe/${unsubscribe}`);
  await heading(reader.page, "Unsubscribe");
  await clickButton(reader.page, "Unsubscribe");
  await waitForText(reader.page, `${address} is unsubscribed`);
  await go(reader.page, `/notifications/unsubscribe/${unsubscribe}`);
  await clickButton(reader.page, "Unsubscribe");
  await waitForText(reader.page, "was used already or is unknown");
  assert.deepEqual((await channelNamed(token, name)).addresses, [{ address, state: "unsubscribed" }]);
  assertNoProblems(reader);
  await api(token, "DELETE", `/api/notification-channels/${(await channelNamed(token, name)).id}`);
  await admin.context.close();
  await reader.context.close();
});
