// The pages of a tenant's administration, as an admin and as a viewer uses them: API keys (made,
// used once shown, revoked), webhook subscriptions (made, edited, pinged, deleted), the admission
// policy form, the decision and audit logs, and what a viewer may not do.
//
// After signing in the tests move by clicking links, as a person does: a full page load would
// need the refresh cookie to keep the session.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
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
  fetchInsecure,
  fill,
  heading,
  json,
  launch,
  openPage,
  retype,
  screenshot,
  signIn,
} from "./support.mjs";

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

// ------------------------------------------------------------------ helpers

async function check(page, name) {
  const box = await byRole(page, "checkbox", name);
  if (!(await box.evaluate((input) => input.checked))) await box.click();
}

// A link of the page (the main navigation's, or one in the page), then the page it opens.
async function follow(page, link, title) {
  await clickLink(page, link);
  await heading(page, title);
}

// A page without a link to it for this person (an admin page for a viewer), reached without a reload.
async function goWithinConsole(page, path) {
  await page.evaluate((to) => {
    history.pushState(null, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

// The browser's date-time picker types differently in every locale; a person's pick arrives as
// the same input event.
async function pickDateTime(field, localValue) {
  await field.evaluate((input, value) => {
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, localValue);
}

async function mainText(page) {
  return page.$eval("main", (main) => main.innerText);
}

async function waitForText(page, text) {
  await page.waitForFunction((want) => document.querySelector("main")?.innerText.includes(want), { timeout: 10_000 }, text);
}

// The text of the first table row holding every one of `texts` (waits for it).
async function rowWith(page, texts, timeout = 10_000) {
  const row = await page.waitForFunction(
    (wants) => [...document.querySelectorAll("main tbody tr")].find((tr) => wants.every((want) => tr.innerText.includes(want))) || null,
    { timeout },
    texts,
  );
  return row.evaluate((tr) => tr.innerText);
}

// What in the page's main part could change something: buttons and form fields, by name.
async function controls(page) {
  return page.$$eval("main button, main input, main select, main textarea", (elements) =>
    elements.map((element) => `${element.tagName.toLowerCase()}:${element.labels?.[0]?.innerText || element.innerText || element.getAttribute("aria-label") || ""}`.trim()),
  );
}

// A webhook receiver on loopback (the test stack lets the dispatcher reach 127.0.0.1 over http).
async function startReceiver() {
  const received = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end("ok");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

// Where the demo's images are (the stack's ICAT_REGISTRY; icatctl's default when it sets none).
const demoRegistry = process.env.ICAT_REGISTRY || "registry.example.test/hardened";

// An AdmissionReview of a Pod with one image outside the catalogue and one in it.
function podReview(uid, name) {
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid,
      kind: { group: "", version: "v1", kind: "Pod" },
      operation: "CREATE",
      namespace: "default",
      name,
      object: {
        metadata: { name },
        spec: {
          initContainers: [{ name: "init", image: "busybox" }],
          containers: [{ name: "web", image: `${demoRegistry}/nginx:1.27.3` }],
        },
      },
    },
  };
}

const v1Images = (key) => fetchInsecure("/v1/images", { headers: { Authorization: "Bearer " + key } });

// ------------------------------------------------------------------ tests

test("an admin creates an API key with chosen scopes, uses the secret shown once, and revokes it", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page);
  await follow(page, "API keys", "API keys");
  await page.waitForSelector("main table");
  await assertAccessible(page, "keys");
  await screenshot(page, "keys");

  const name = `browser-key-${Date.now()}`;
  await fill(page, "Name", name);
  await check(page, "read:catalog: list images and read their details");
  await check(page, "read:vulns: read vulnerabilities and look up CVEs");
  await clickButton(page, "Create key");
  const secretField = await byRole(page, "textbox", `New API key: ${name}`);
  const secret = await secretField.evaluate((input) => input.value);
  assert.match(secret, /^[a-z]+_live_\S+$/, "the full key is shown");
  assert.equal(await page.evaluate(() => document.activeElement?.value), secret, "the key's field has the focus, ready to copy");
  const example = await page.$eval("main pre", (pre) => pre.innerText);
  assert.ok(example.includes(`curl -H "Authorization: Bearer ${secret}" ${new URL(page.url()).origin}/v1/images`), example);
  const row = await rowWith(page, [name]);
  assert.ok(row.includes(secret.slice(0, 14)), `the list shows the prefix: ${row}`);
  assert.match(row, /read:catalog, read:vulns/);
  assert.match(row, /active/);
  assert.match(row, /does not expire/);
  await assertAccessible(page, "keys-new-secret");
  await screenshot(page, "keys-new-secret");

  assert.equal((await v1Images(secret)).status, 200, "the new key lists the images");

  // Away and back: the list comes again, the key does not.
  await follow(page, "Webhooks", "Webhooks");
  await follow(page, "API keys", "API keys");
  await rowWith(page, [name]);
  const inputs = await page.$$eval("input", (fields) => fields.map((field) => field.value).join(" "));
  assert.ok(!(await mainText(page)).includes(secret) && !inputs.includes(secret), "the key is not shown again");

  await clickButton(page, `Revoke ${name}`);
  await clickButton(page, "Yes, revoke");
  await rowWith(page, [name, "revoked"]);
  assert.equal((await v1Images(secret)).status, 401, "the revoked key is refused");
  assertNoProblems(watched);
  await watched.context.close();
});

test("an admin subscribes a webhook, sees its secret once, edits it, pings it, follows the delivery and deletes it", async () => {
  const receiver = await startReceiver();
  const watched = await openPage(browser);
  const { page } = watched;
  try {
    await signIn(page);
    await follow(page, "Webhooks", "Webhooks");
    await fill(page, "Receiver URL", receiver.url);
    await check(page, "scan.completed: a licensed image version was scanned");
    await clickButton(page, "Subscribe");
    const secret = await (await byRole(page, "textbox", `Signing secret for ${receiver.url}`)).evaluate((input) => input.value);
    assert.match(secret, /^whsec_/);
    assert.match(await rowWith(page, [receiver.url]), /scan\.completed\s+active/);
    await assertAccessible(page, "webhooks");
    await screenshot(page, "webhooks");

    await follow(page, receiver.url, "Webhook subscription");
    assert.ok(!(await mainText(page)).includes(secret), "the subscription's page does not show the secret");
    await check(page, "vulnerability.fixed: vulnerabilities of the previous scan are gone");
    await clickButton(page, "Save changes");
    await waitForText(page, "Saved.");
    await page.waitForFunction(() => document.querySelector("dl.facts")?.innerText.includes("scan.completed, vulnerability.fixed"), { timeout: 10_000 });
    const token = await apiLogin();
    const stored = json(await api(token, "GET", "/api/webhooks?limit=200")).webhooks.find((webhook) => webhook.url === receiver.url);
    assert.deepEqual(stored.events, ["scan.completed", "vulnerability.fixed"], "the edit is stored");

    await clickButton(page, "Send a ping");
    await waitForText(page, "Ping queued as event");
    const eventId = await page.$eval("main [role=status] code", (code) => code.innerText);
    // The log refreshes itself while the delivery is pending; the receiver answers 200.
    const delivery = await rowWith(page, [eventId, "succeeded"], 20_000);
    assert.match(delivery, /^ping/);
    assert.match(delivery, /\b200\b/, `last status 200: ${delivery}`);
    const ping = receiver.received.find((request) => request.headers["webhook-id"] === eventId);
    assert.ok(ping, "the receiver got the ping");
    assert.match(ping.headers["webhook-signature"], /^v1,/);
    await assertAccessible(page, "webhook-detail");
    await screenshot(page, "webhook-detail");

    await clickButton(page, "Delete subscription");
    await clickButton(page, "Yes, delete");
    await heading(page, "Webhooks");
    await page.waitForSelector("main table, main .empty");
    assert.ok(!(await mainText(page)).includes(receiver.url), "the deleted subscription is gone from the list");
    const left = json(await api(token, "GET", "/api/webhooks?limit=200")).webhooks;
    assert.ok(!left.some((webhook) => webhook.url === receiver.url), "and from the API");
    assertNoProblems(watched);
  } finally {
    await watched.context.close();
    await receiver.close();
  }
});

test("an admin changes the admission policy in its form, adds an exception, and reads the API's refusal of a bad value", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  const token = await apiLogin();
  try {
    await signIn(page);
    await follow(page, "Admission", "Admission policy");
    await (await byRole(page, "combobox", "Mode")).select("warn");
    await retype(await byLabel(page, "Grace period in days"), "7");
    await check(page, "Only references pinned by digest");
    await check(page, "Only images from this service's registry");
    await check(page, "Deny known exploited vulnerabilities");
    await retype(await byLabel(page, "Highest EPSS score allowed"), "0.4");
    await clickButton(page, "Add an exception");
    const exception = await page.waitForSelector("fieldset.exception:last-of-type");
    // The page moves the focus after the new row renders (an effect): wait for it, do not race it.
    await page.waitForFunction(() => document.activeElement?.closest("fieldset.exception") !== null, { timeout: 5_000 })
      .catch(() => assert.fail("the new exception has the focus"));
    await (await exception.waitForSelector("::-p-aria(CVE or GHSA id)")).type("cve-2024-3094");
    await (await exception.waitForSelector("::-p-aria(Justification)")).type("xz is not executed in these images");
    await pickDateTime(await exception.waitForSelector("::-p-aria(Expires)"), "2027-06-30T12:00");
    await clickButton(page, "Save policy");
    await waitForText(page, "Saved: the next admission review uses this policy.");
    const storedCve = await page.waitForSelector("fieldset.exception ::-p-aria(CVE or GHSA id)");
    assert.equal(await storedCve.evaluate((input) => input.value), "CVE-2024-3094", "the form shows the stored policy");
    await assertAccessible(page, "admission");
    await screenshot(page, "admission");

    const expiresAt = await page.evaluate(() => new Date("2027-06-30T12:00").toISOString().replace(/\.\d{3}Z$/, "Z"));
    const policy = json(await api(token, "GET", "/api/admission-policy"));
    assert.equal(policy.mode, "warn");
    assert.equal(policy.gracePeriodDays, 7);
    assert.equal(policy.requireDigest, true);
    assert.equal(policy.requireCatalogRegistry, true);
    assert.equal(policy.denyKnownExploited, true);
    assert.equal(policy.maxEpss, 0.4);
    assert.deepEqual(policy.exceptions, [{ cveId: "CVE-2024-3094", imageId: null, justification: "xz is not executed in these images", expiresAt }]);

    // A namespace Kubernetes would not accept: the API says which line and why.
    watched.expectedErrors.push(/status of 400/);
    const namespaces = await byLabel(page, "Exempt namespaces");
    await namespaces.click();
    await page.keyboard.press("End");
    await namespaces.type("\nNot_A_Namespace");
    await clickButton(page, "Save policy");
    await page.waitForSelector("main .error");
    const refusal = await page.$eval("main .error", (error) => error.innerText);
    assert.match(refusal, /exemptNamespaces\[1\]: must be a Kubernetes namespace name/);
    assert.match(refusal, /VALIDATION_ERROR \(HTTP 400\) · request id [0-9a-f]+/);
    assert.deepEqual(json(await api(token, "GET", "/api/admission-policy")).exemptNamespaces, ["kube-system"], "nothing was stored");
    await clickButton(page, "Discard changes");
    assert.equal(await namespaces.evaluate((textarea) => textarea.value), "kube-system");
    assertNoProblems(watched);
  } finally {
    await api(token, "PUT", "/api/admission-policy", {});  // the defaults again, for the other tests
    await watched.context.close();
  }
});

test("the decision log shows a review with the asking key's prefix, and the audit log shows that key's creation", async () => {
  const token = await apiLogin();
  const made = await api(token, "POST", "/api/api-keys", { name: `browser-admission-${Date.now()}`, scopes: ["admission"] });
  assert.equal(made.status, 201);
  const key = json(made);
  const uid = randomUUID();
  const podName = `browser-pod-${Date.now()}`;
  const review = await fetchInsecure("/v1/admission", {
    method: "POST",
    headers: { Authorization: "Bearer " + key.secret, "Content-Type": "application/json" },
    body: JSON.stringify(podReview(uid, podName)),
  });
  assert.equal(review.status, 200);
  assert.equal((await review.json()).response.allowed, false, "busybox is not in the catalogue");

  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page);
  await follow(page, "Admission", "Admission policy");
  await follow(page, "Decision log", "Admission decisions");
  const decision = await rowWith(page, [uid]);
  for (const expected of ["CREATE Pod", `default/${podName}`, "denied", "mode enforce", key.prefix, "busybox", "in initContainer init", "requireCatalogImages on busybox"]) {
    assert.ok(decision.includes(expected), `the decision shows ${expected}: ${decision}`);
  }
  await (await byRole(page, "combobox", "Show")).select("true");
  await page.waitForFunction(() => location.search === "?allowed=true");
  await page.waitForFunction((want) => !document.querySelector("main").innerText.includes(want) && !document.querySelector("main [role=status]"), { timeout: 10_000 }, uid);
  await (await byRole(page, "combobox", "Show")).select("false");
  await rowWith(page, [uid]);
  await assertAccessible(page, "admission-decisions");
  await screenshot(page, "admission-decisions");

  await follow(page, "Audit log", "Audit log");
  assert.match(await rowWith(page, [key.id, "key.created"]), new RegExp(key.prefix));
  await retype(await byRole(page, "combobox", "Action"), "key.created");
  await clickButton(page, "Filter");
  await page.waitForFunction(() => location.search === "?action=key.created");
  await rowWith(page, [key.id]);
  const actions = await page.$$eval("main tbody tr td:nth-child(3)", (cells) => [...new Set(cells.map((cell) => cell.innerText))]);
  assert.deepEqual(actions, ["key.created"], "the filter keeps that action only");
  await assertAccessible(page, "audit");
  await screenshot(page, "audit");
  assertNoProblems(watched);
  await watched.context.close();
  await api(token, "DELETE", `/api/api-keys/${key.id}`);
});

test("a viewer finds the keys and the audit log closed with the reason, and reads webhooks and the policy without controls", async () => {
  const token = await apiLogin();
  const url = `http://127.0.0.1:9/viewer-${Date.now()}`;
  const hook = json(await api(token, "POST", "/api/webhooks", { url, events: ["scan.completed"] }));
  assert.equal((await api(token, "POST", `/api/webhooks/${hook.id}/ping`)).status, 202);
  const viewer = createUser("viewer");

  const watched = await openPage(browser);
  const { page } = watched;
  await signIn(page, viewer, "/keys");
  await heading(page, "API keys");
  await waitForText(page, "Only a tenant admin can see the tenant's API keys. Your role is viewer");
  assert.deepEqual(await controls(page), [], "no control on the closed page");
  const navigation = await page.$eval("header.top nav", (nav) => nav.innerText);
  assert.ok(!navigation.includes("API keys") && !navigation.includes("Audit log"), "the navigation offers neither");
  await assertAccessible(page, "viewer-keys-closed");
  await screenshot(page, "viewer-keys-closed");

  await goWithinConsole(page, "/audit");
  await heading(page, "Audit log");
  await waitForText(page, "Only a tenant admin can see the audit log.");
  assert.deepEqual(await controls(page), []);

  await follow(page, "Webhooks", "Webhooks");
  await rowWith(page, [url]);
  assert.deepEqual(await controls(page), [], "no form and no button on the list");
  await follow(page, url, "Webhook subscription");
  await rowWith(page, ["ping"]);
  assert.deepEqual(await controls(page), ["select:State", "button:Refresh"], "only the log's filter and refresh");

  await follow(page, "Admission", "Admission policy");
  await waitForText(page, "Only a tenant admin can change the admission policy.");
  assert.match(await mainText(page), /Exempt namespaces\s+kube-system/);
  assert.deepEqual(await controls(page), [], "the policy is read-only");
  await assertAccessible(page, "viewer-admission");
  assertNoProblems(watched);
  await watched.context.close();
  await api(token, "DELETE", `/api/webhooks/${hook.id}`);
});
