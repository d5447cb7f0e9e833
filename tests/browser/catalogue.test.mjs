// The catalogue pages as a person uses them: from /images to an image, its findings filtered and
// sorted, an older version, the SBOM downloads (the saved file must be the API's bytes), the scan
// history chart and its table; the CVE look-up; CVE watches and requests for an admin, and the
// same pages for a viewer, who sees no control the API would refuse. Expected values come from
// the API itself (a session of the test's own), so the pages are checked against the service.
//
// A reload loses the session until the refresh cookie lands, so each test signs in with the page
// it starts on as `next` and moves on by clicking, as a person would.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import {
  admin,
  api,
  apiJson,
  apiLogin,
  assertAccessible,
  assertNoProblems,
  byLabel,
  byRole,
  clickButton,
  clickLink,
  createUser,
  demoNginx,
  env,
  fill,
  heading,
  json,
  launch,
  openPage,
  origin,
  screenshot,
  signIn,
  tenant,
} from "./support.mjs";

let browser;
let token;
let nginx;  // the demo image with two versions, the newer scanned twice

const apiGet = (path) => apiJson(token, path);

before(async () => {
  browser = await launch();
  token = await apiLogin();
  nginx = await demoNginx(token);
});
after(async () => browser?.close());

const versionPath = (version) => `/api/docker-images/${nginx.id}/versions/${version.id}`;

async function choose(page, label, value) {
  const select = await byRole(page, "combobox", label);
  await select.select(value);
}

const findingRows = (page) =>
  page.$$eval("table.findings tbody tr", (rows) =>
    rows.map((row) => ({
      id: row.cells[0].querySelector("a").textContent,
      severity: row.cells[3].textContent.trim(),
      cvss: row.cells[4].textContent.trim(),
      fixState: row.cells[5].textContent.trim(),
      kev: row.cells[7].textContent.trim(),
      epss: row.cells[8].textContent.trim(),
    })),
  );

// Waits until the findings table has `count` rows and returns them.
async function waitForFindings(page, count) {
  await page.waitForFunction((want) => document.querySelectorAll("table.findings tbody tr").length === want, { timeout: 10_000 }, count);
  return findingRows(page);
}

const cvss = (row) => (row.cvss === "none" ? -1 : Number(row.cvss));
const isOrdered = (values, descending) => values.every((value, index) => index === 0 || (descending ? values[index - 1] >= value : values[index - 1] <= value));

test("from /images to an image: findings filtered by severity, sorted, and an older version", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  const [latest, older] = nginx.versions;
  await signIn(page);
  await heading(page, "Images");

  // Each row shows its latest version and the critical and high counts of the image's detail.
  const row = await (await byRole(page, "link", "nginx")).evaluate((link) => [...link.closest("tr").cells].map((cell) => cell.textContent.trim()));
  assert.ok(row[0].endsWith(nginx.repository), `${row[0]} shows ${nginx.repository}`);
  assert.equal(row[1], nginx.description);
  assert.match(row[3], new RegExp(`^${latest.tag.replaceAll(".", "\\.")}`));
  assert.equal(row[4], String(nginx.vulnerabilityCounts.critical));
  assert.equal(row[5], String(nginx.vulnerabilityCounts.high));
  assert.match(row[6], /^scanned/);
  await assertAccessible(page, "images");
  await screenshot(page, "images");

  // The search term goes to the address and narrows the list to the API's answer.
  await fill(page, "Image name contains", "post");
  await clickButton(page, "Search");
  await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "post");
  await page.waitForFunction(() => document.querySelectorAll("main tbody tr").length === 1 && document.querySelector("main tbody th a").textContent === "postgres");
  await clickButton(page, "Show all images");
  await clickLink(page, "nginx");
  await heading(page, "nginx");

  // Every finding of the latest version is listed, as many as the API's pages hold.
  const all = (await apiGet(`${versionPath(latest)}/vulnerabilities?limit=200`)).vulnerabilities;
  let rows = await waitForFindings(page, all.length);
  assert.deepEqual(rows.map((finding) => finding.id).sort(), all.map((finding) => finding.id).sort());
  // Each shows its CVE's EPSS score and whether it is known exploited, as the API says (the demo's
  // KEV catalogue holds none of its CVEs, its EPSS sample scores them).
  const shownFeeds = (finding) => `${finding.id} ${finding.kev.startsWith("yes")} ${finding.epss === "none" ? "none" : finding.epss.split("%")[0]}`;
  const feedsOf = (finding) => `${finding.id} ${Boolean(finding.kev)} ${finding.epss ? (finding.epss.score * 100).toFixed(1) : "none"}`;
  assert.deepEqual(rows.map(shownFeeds).sort(), all.map(feedsOf).sort());
  assert.ok(all.some((finding) => finding.epss), "some findings have an EPSS score");

  // A severity filter shows that severity only: the findings the API's own filter gives.
  const medium = (await apiGet(`${versionPath(latest)}/vulnerabilities?severity=medium&limit=200`)).vulnerabilities;
  assert.ok(medium.length > 0 && medium.length < all.length, "the demo version has medium findings and others");
  await choose(page, "Severity", "medium");
  rows = await waitForFindings(page, medium.length);
  assert.ok(rows.every((finding) => finding.severity === "medium"), "only medium findings");
  assert.deepEqual(rows.map((finding) => finding.id).sort(), medium.map((finding) => finding.id).sort());
  assert.equal(new URL(page.url()).searchParams.get("severity"), "medium", "the filter is in the address");

  // Sorting by CVSS: highest first, then lowest first, across all findings.
  await choose(page, "Severity", "");
  await waitForFindings(page, all.length);
  await clickButton(page, "CVSS");
  await page.waitForSelector("th[aria-sort=descending] ::-p-text(CVSS)");
  rows = await findingRows(page);
  assert.ok(isOrdered(rows.map(cvss), true), `CVSS descending: ${rows.map((finding) => finding.cvss)}`);
  await clickButton(page, "CVSS");
  await page.waitForSelector("th[aria-sort=ascending] ::-p-text(CVSS)");
  rows = await findingRows(page);
  assert.ok(isOrdered(rows.map(cvss), false), `CVSS ascending: ${rows.map((finding) => finding.cvss)}`);
  assert.equal(new URL(page.url()).searchParams.get("sort"), "cvss");
  await clickButton(page, "Vulnerability");
  await page.waitForSelector("th[aria-sort=ascending] ::-p-text(Vulnerability)");
  rows = await findingRows(page);
  const ids = rows.map((finding) => finding.id);
  assert.deepEqual(ids, [...ids].sort((a, b) => a.localeCompare(b, "en", { numeric: true })));
  await assertAccessible(page, "image-detail findings");

  // The older version: its own findings, and its id in the address.
  const olderFindings = (await apiGet(`${versionPath(older)}/vulnerabilities?limit=200`)).vulnerabilities;
  await clickLink(page, older.tag);
  await page.waitForFunction((tag) => document.querySelector("#version-title")?.textContent === `Version ${tag}`, {}, older.tag);
  assert.equal(new URL(page.url()).searchParams.get("version"), older.id);
  rows = await waitForFindings(page, olderFindings.length);
  assert.deepEqual(rows.map((finding) => finding.id).sort(), olderFindings.map((finding) => finding.id).sort());
  assertNoProblems(watched);
  await watched.context.close();
});

test("each version shows the tenant's pulls; the version shown, its pull command and a cluster's pull secret", async () => {
  const watched = await openPage(browser);
  const { page, context } = watched;
  const [latest] = nginx.versions;
  await context.overridePermissions(origin(), ["clipboard-read", "clipboard-write", "clipboard-sanitized-write"]);
  await signIn(page, admin(), `/images/${nginx.id}`);
  await heading(page, "nginx");

  // The "Your pulls" column says what the API says of each version.
  const detail = await apiGet(`/api/docker-images/${nginx.id}`);
  const shown = await page.$$eval("main table", (tables) => {
    const versions = tables.find((table) => table.caption?.textContent.startsWith("Versions of"));
    const column = [...versions.tHead.rows[0].cells].findIndex((cell) => cell.textContent === "Your pulls");
    return [...versions.tBodies[0].rows].map((row) => row.cells[column].textContent.trim());
  });
  assert.equal(shown.length, detail.versions.length);
  detail.versions.forEach((version, i) => {
    if (version.pullCount === 0) assert.equal(shown[i], "none", version.tag);
    else assert.ok(shown[i].startsWith(`${version.pullCount}, last `), `${version.tag}: ${shown[i]}`);
  });

  // The pull command by digest, and a pull secret of the tenant's name for the registry's host.
  const boxText = (label) => page.$eval(`[role=group][aria-label="${label}"] code`, (code) => code.textContent);
  const reference = `${detail.repository}@${latest.digest}`;
  assert.equal(await boxText("Pull command"), `docker pull ${reference}`);
  const secret = await boxText("Pull secret command");
  assert.match(secret, /^kubectl create secret docker-registry icat-pull /);
  assert.ok(secret.includes(`--docker-server=${detail.repository.split("/")[0]} `), secret);
  assert.ok(secret.includes(`--docker-username=${tenant()} `), secret);
  assert.ok(secret.includes("--docker-password=<an API key with scope pull>"), secret);
  const podSpec = await boxText("Pod spec");
  assert.ok(podSpec.includes("imagePullSecrets:\n    - name: icat-pull") && podSpec.includes(`image: ${reference}`), podSpec);

  // Its copy button puts the command on the clipboard.
  await clickButton(page, "Copy: Pull command");
  await byRole(page, "button", "Copied: Pull command");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `docker pull ${reference}`);
  await assertAccessible(page, "image-detail pull");
  await screenshot(page, "image-detail-pull");
  assertNoProblems(watched);
  await watched.context.close();
});

// Resolves with the file name of the next download of the browser once it has completed.
function nextDownload(cdp) {
  return new Promise((resolve, reject) => {
    let name = "";
    const timer = setTimeout(() => finish(new Error("no download completed within 10 s")), 10_000);
    const begin = (event) => (name = event.suggestedFilename);
    const progress = (event) => {
      if (event.state === "completed") finish(null, name);
      if (event.state === "canceled") finish(new Error(`download of ${name} canceled`));
    };
    function finish(error, value) {
      clearTimeout(timer);
      cdp.off("Browser.downloadWillBegin", begin);
      cdp.off("Browser.downloadProgress", progress);
      if (error) reject(error);
      else resolve(value);
    }
    cdp.on("Browser.downloadWillBegin", begin);
    cdp.on("Browser.downloadProgress", progress);
  });
}

test("SBOM downloads are the API's bytes, with checksum and signature; the scan history is charted and tabled", async () => {
  const watched = await openPage(browser);
  const { page, context } = watched;
  const [latest] = nginx.versions;
  const downloads = mkdtempSync(join(tmpdir(), "icat-sbom-"));
  const cdp = await browser.target().createCDPSession();
  try {
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads, browserContextId: context.id, eventsEnabled: true });
    await signIn(page, admin(), `/images/${nginx.id}?version=${latest.id}`);
    await heading(page, "nginx");

    for (const [format, label] of [
      ["spdx", "SPDX 2.3"],
      ["cyclonedx", "CycloneDX 1.5"],
    ]) {
      const reply = await api(token, "GET", `${versionPath(latest)}/sbom/${format}`);
      assert.equal(reply.status, 200, `the API's ${format} SBOM`);
      const expected = Buffer.from(reply.body);
      const fileName = /filename="([^"]+)"/.exec(reply.headers.get("content-disposition"))[1];
      const saved = nextDownload(cdp);
      await clickButton(page, `Download the ${label} SBOM`);
      assert.equal(await saved, fileName, "saved under the API's file name");
      assert.ok(readFileSync(join(downloads, fileName)).equals(expected), `the saved ${format} file is the API's bytes`);

      // The page shows the checksum of what it received, equal to the ETag, and the signature.
      const etagHex = reply.headers.get("etag").replace(/^"sha256:|"$/g, "");
      const card = await page.waitForSelector(`::-p-text(Save ${fileName} again)`);
      const shown = await card.evaluate((link) => link.closest(".card").textContent);
      assert.ok(shown.includes(etagHex), "the SHA-256 is shown");
      assert.ok(shown.includes("equals the service's ETag"), "the checksum is compared with the ETag");
      assert.ok(shown.includes(reply.headers.get("repr-digest")), "Repr-Digest is shown");
      assert.ok(shown.includes(reply.headers.get("x-signature")), "the signature is shown");
      assert.ok(shown.includes(`select(.id == "${reply.headers.get("x-signature-key-id")}")`), "the key id is in the verify commands");
      assert.match(shown, /openssl pkeyutl -verify -pubin -inkey icat-signing-key\.pem -rawin/);
    }

    // The scan history: a canvas drawn by uPlot, and the table with one row per scan.
    const history = await apiGet(`${versionPath(latest)}/scan-history`);
    assert.ok(history.points.length >= 2, "the demo version was scanned twice");
    await page.waitForSelector("figure.chart canvas");
    const size = await page.$eval("figure.chart canvas", (canvas) => canvas.width * canvas.height);
    assert.ok(size > 0, "the chart has a size");
    const table = await page.waitForSelector(`::-p-text(Scans of ${latest.tag}, oldest first)`);
    const criticals = await table.evaluate((caption) =>
      [...caption.closest("table").tBodies[0].rows].map((row) => {
        const column = [...caption.closest("table").tHead.rows[0].cells].findIndex((cell) => cell.textContent === "critical");
        return Number(row.cells[column].textContent);
      }),
    );
    assert.deepEqual(criticals, history.points.map((point) => point.vulnerabilityCounts.critical));
    await assertAccessible(page, "image-detail");
    await screenshot(page, "image-detail");
    assertNoProblems(watched);
  } finally {
    await cdp.detach();
    rmSync(downloads, { recursive: true, force: true });
    await context.close();
  }
});

test("attestations: listed with predicate type and key, each bundle saved as the API's bytes, the verify commands; icat verify passes on the demo images", async () => {
  const watched = await openPage(browser);
  const { page, context } = watched;
  const [latest] = nginx.versions;
  const { attestations } = await apiGet(`${versionPath(latest)}/attestations`);
  assert.ok(attestations.length >= 2, "the demo version has its SBOMs attested at least");
  const downloads = mkdtempSync(join(tmpdir(), "icat-attestation-"));
  const cdp = await browser.target().createCDPSession();
  try {
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads, browserContextId: context.id, eventsEnabled: true });
    await signIn(page, admin(), `/images/${nginx.id}?version=${latest.id}`);
    await heading(page, "nginx");

    // One row per attestation: type, predicate type, key id, as the API lists them.
    const table = await page.waitForSelector(`::-p-text(Attestations of ${latest.tag})`);
    const rows = await table.evaluate((caption) => [...caption.closest("table").tBodies[0].rows].map((row) => [...row.cells].slice(0, 3).map((cell) => cell.textContent.trim())));
    assert.deepEqual(rows, attestations.map((attestation) => [attestation.type, attestation.predicateType, attestation.keyId]));

    // A bundle saved is the API's bytes, under its file name.
    const [first] = attestations;
    const reply = await api(token, "GET", `${versionPath(latest)}/attestations/${first.type}`);
    assert.equal(reply.status, 200, `the API's ${first.type} bundle`);
    const fileName = /filename="([^"]+)"/.exec(reply.headers.get("content-disposition"))[1];
    const saved = nextDownload(cdp);
    await clickButton(page, `Download the ${first.type} attestation`);
    assert.equal(await saved, fileName, "saved under the API's file name");
    assert.ok(readFileSync(join(downloads, fileName)).equals(Buffer.from(reply.body)), "the saved bundle is the API's bytes");
    await page.waitForSelector(`::-p-text(Save ${fileName} again)`);

    // The commands: icat verify by digest, and cosign against each published key.
    const boxText = (label) => page.$eval(`[role=group][aria-label="${label}"] code`, (code) => code.textContent);
    const reference = `${nginx.repository}@${latest.digest}`;
    assert.equal(await boxText("icat verify command"), `icat verify ${reference}`);
    const cosign = await boxText("cosign verify-attestation commands");
    assert.ok(cosign.includes(`curl -so icat-attestation-${first.keyId}.pub ${origin()}/v1/signing-keys/${first.keyId}`), cosign);
    for (const { predicateType, keyId } of attestations) {
      assert.ok(cosign.includes(`cosign verify-attestation --key icat-attestation-${keyId}.pub --insecure-ignore-tlog --type ${predicateType} ${reference}`), cosign);
    }
    await assertAccessible(page, "image-detail attestations");
    assertNoProblems(watched);
  } finally {
    await cdp.detach();
    rmSync(downloads, { recursive: true, force: true });
    await context.close();
  }

  // build/bin/icat verify on every version of every demo image: exit 0, a line per attestation.
  const { images } = await apiGet("/api/docker-images?limit=100");
  let verified = 0;
  for (const listed of images) {
    const detail = await apiGet(`/api/docker-images/${listed.id}`);
    for (const version of detail.versions.filter((version) => version.scanStatus === "scanned")) {
      const run = spawnSync(join(env("ICAT_BUILD_DIR"), "bin", "icat"), ["verify", `${detail.repository}@${version.digest}`], {
        env: { ...process.env, ICAT_API_KEY: env("ICAT_DEMO_API_KEY") },
        encoding: "utf8",
      });
      const shown = `icat verify ${detail.name} ${version.tag}: exit ${run.status}\n${run.stdout}${run.stderr}`;
      assert.equal(run.status, 0, shown);
      assert.match(run.stdout, /^ok spdx {2}https:\/\/spdx\.dev\/Document {2}key [0-9a-f]{16}$/m, shown);
      verified++;
    }
  }
  assert.ok(verified >= 2, `icat verify ran on ${verified} demo versions`);
});

test("CVE look-up from the form, latest or every version, and a malformed id in words", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  const cveId = (await apiGet(`${versionPath(nginx.versions[0])}/vulnerabilities?severity=critical`)).vulnerabilities[0].id;
  const latestOnly = await apiGet(`/api/cve/${cveId}`);
  const everyVersion = await apiGet(`/api/cve/${cveId}?versions=all`);
  const versionRows = (lookup) => lookup.images.reduce((sum, image) => sum + image.versions.reduce((n, version) => n + version.packages.length, 0), 0);
  assert.ok(versionRows(everyVersion) > versionRows(latestOnly), "older versions carry it too");

  await signIn(page, admin(), "/cve");
  await heading(page, "CVE look-up");
  await fill(page, "CVE or GHSA id", cveId.toLowerCase());
  await clickButton(page, "Look up");
  await page.waitForFunction((id) => decodeURIComponent(location.pathname).toUpperCase() === `/CVE/${id}`, {}, cveId);
  const affected = async (count) => {
    await page.waitForFunction((want) => document.querySelectorAll("main section.card tbody tr").length === want, { timeout: 10_000 }, count);
    return page.$$eval("main section.card h3", (titles) => titles.map((title) => title.textContent));
  };
  assert.deepEqual(await affected(versionRows(latestOnly)), latestOnly.images.map((image) => image.name));
  await assertAccessible(page, "cve");
  await screenshot(page, "cve");

  await choose(page, "Look in", "all");
  assert.deepEqual(await affected(versionRows(everyVersion)), everyVersion.images.map((image) => image.name));
  assert.equal(new URL(page.url()).searchParams.get("versions"), "all");

  // A malformed id: the API's refusal, in its words, with the request id.
  const refusal = await api(token, "GET", "/api/cve/not-a-cve");
  assert.equal(refusal.status, 400);
  watched.expectedErrors.push(/status of 400/);
  await fill(page, "CVE or GHSA id", "not-a-cve");
  await clickButton(page, "Look up");
  const alert = await page.waitForSelector("main [role=alert]");
  const said = await alert.evaluate((element) => element.textContent);
  assert.ok(said.includes(json(refusal).message), said);
  assert.match(said, /VALIDATION_ERROR \(HTTP 400\) · request id [0-9a-f]+/);

  // The result links to the image page.
  await fill(page, "CVE or GHSA id", cveId);
  await clickButton(page, "Look up");
  await affected(versionRows(everyVersion));
  await clickLink(page, "nginx");
  await heading(page, "nginx");
  assertNoProblems(watched);
  await watched.context.close();
});

// The watch a test adds, gone first so a test can be run again against the same stack.
async function unwatch(cveId) {
  const { cveWatches } = await apiGet("/api/cve-watches?limit=200");
  for (const watch of cveWatches.filter((one) => one.cveId === cveId)) {
    assert.equal((await api(token, "DELETE", `/api/cve-watches/${watch.id}`)).status, 204);
  }
}

test("an admin watches a CVE, is told when it is watched already, and stops watching it", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  const cveId = (await apiGet(`${versionPath(nginx.versions[0])}/vulnerabilities?severity=critical`)).vulnerabilities[0].id;
  await unwatch(cveId);

  await signIn(page, admin(), "/watches");
  await heading(page, "CVE watches");
  await fill(page, "CVE or GHSA id", cveId.toLowerCase());
  await fill(page, "Note (optional)", "Watched by the browser test");
  await clickButton(page, "Watch");
  await page.waitForSelector(`::-p-text(Now watching ${cveId}.)`);
  const row = await byRole(page, "link", cveId);
  const cells = await row.evaluate((link) => [...link.closest("tr").cells].map((cell) => cell.textContent));
  assert.equal(cells[1], "Watched by the browser test");
  assert.match(cells[2], new RegExp(`nginx ${nginx.versions[0].tag.replaceAll(".", "\\.")}`), "the images carrying it now");
  assert.match(cells[3], /by you/);
  const stored = (await apiGet("/api/cve-watches")).cveWatches.find((watch) => watch.cveId === cveId);
  assert.ok(stored, "the API lists the new watch");
  await assertAccessible(page, "watches");
  await screenshot(page, "watches");

  // A second watch of the same id: the API's 409, in words.
  watched.expectedErrors.push(/status of 409/);
  await fill(page, "CVE or GHSA id", cveId);
  await clickButton(page, "Watch");
  const alert = await page.waitForSelector("form [role=alert]");
  assert.match(await alert.evaluate((element) => element.textContent), /CONFLICT \(HTTP 409\)/);

  await clickButton(page, `Stop watching ${cveId}`);
  await clickButton(page, "Stop watching");
  await page.waitForFunction((id) => ![...document.querySelectorAll("main tbody th")].some((cell) => cell.textContent === id), {}, cveId);
  assert.ok(!(await apiGet("/api/cve-watches")).cveWatches.some((watch) => watch.cveId === cveId), "the API no longer lists it");
  assertNoProblems(watched);
  await watched.context.close();
});

test("an admin files a package request; the status and type filters are in the address", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  const title = `Add jq to nginx ${Date.now()}`;
  await signIn(page, admin(), "/requests");
  await heading(page, "Requests");
  await choose(page, "Request type", "package");
  await choose(page, "Image (optional)", nginx.id);
  await fill(page, "Title", title);
  await fill(page, "Description", "Our health checks parse JSON.\nA second line.");
  await fill(page, "Package name", "jq");
  await clickButton(page, "File the request");
  await page.waitForSelector(`::-p-text(Filed “${title}”; its status is open.)`);
  const card = await page.waitForSelector(`article ::-p-text(${title})`);
  const text = await card.evaluate((titleElement) => titleElement.closest("article").textContent);
  for (const part of ["Package request", "Open", "nginx", "jq", admin().email, "Our health checks parse JSON.\nA second line."]) {
    assert.ok(text.includes(part), `the card shows ${JSON.stringify(part)}: ${text}`);
  }
  const filed = (await apiGet("/api/feature-requests")).featureRequests.find((request) => request.title === title);
  assert.equal(filed?.packageName, "jq");
  assert.equal(filed?.imageId, nginx.id);
  await assertAccessible(page, "requests");
  await screenshot(page, "requests");

  // The list's filters.
  await choose(page, "Type", "bug");
  await page.waitForFunction(() => new URL(location.href).searchParams.get("type") === "bug");
  await page.waitForFunction((want) => ![...document.querySelectorAll("article h3")].some((h3) => h3.textContent === want), {}, title);
  await choose(page, "Type", "package");
  await choose(page, "Status", "open");
  await page.waitForFunction((want) => [...document.querySelectorAll("article h3")].some((h3) => h3.textContent === want), {}, title);
  assert.equal(new URL(page.url()).searchParams.get("status"), "open");
  assertNoProblems(watched);
  await watched.context.close();
});

test("a viewer reads the watches and the requests without any form or delete button", async () => {
  const cveId = (await apiGet(`${versionPath(nginx.versions[0])}/vulnerabilities`)).vulnerabilities[0].id;
  await unwatch(cveId);
  assert.equal((await api(token, "POST", "/api/cve-watches", { cveId, note: "for the viewer" })).status, 201);
  const title = `A request the viewer reads ${Date.now()}`;
  assert.equal((await api(token, "POST", "/api/feature-requests", { type: "feature", title, description: "Filed by the test." })).status, 201);
  const watched = await openPage(browser);
  const { page } = watched;
  try {
    await signIn(page, createUser("viewer"), "/watches");
    await heading(page, "CVE watches");
    await byRole(page, "link", cveId);
    const controls = () =>
      page.evaluate(() => ({
        forms: document.querySelectorAll("main form").length,
        buttons: [...document.querySelectorAll("main button")].map((button) => button.textContent),
        textareas: document.querySelectorAll("main textarea").length,
      }));
    assert.deepEqual(await controls(), { forms: 0, buttons: [], textareas: 0 }, "no watch form, no delete button");
    await assertAccessible(page, "watches as a viewer");

    await clickLink(page, "Requests");
    await heading(page, "Requests");
    await page.waitForSelector(`article ::-p-text(${title})`);
    const seen = await controls();
    assert.equal(seen.forms, 0, "no request form");
    assert.equal(seen.textareas, 0);
    assert.ok(!(await page.$("::-p-text(New request)")), "no New request section");
    // Only the list's filters remain.
    assert.equal(await page.$$eval("main select", (selects) => selects.length), 2);
    await byLabel(page, "Status");
    await assertAccessible(page, "requests as a viewer");
    assertNoProblems(watched);
  } finally {
    await watched.context.close();
    await unwatch(cveId);
  }
});
