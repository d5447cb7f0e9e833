// Comparing two versions of an image and the package look-up, as a person uses them: from the
// versions table's "Compare with latest" to the comparison, the pickers turned round, a version
// that does not exist in words; the look-up by purl and by name, latest or every version, and a
// refused look-up in words. Expected values come from the API (a session of the test's own) and,
// where they can, from a count made apart from the compare: the vulnerabilities fixed and
// introduced from the two versions' findings lists.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { admin, api, apiJson, apiLogin, assertAccessible, assertNoProblems, byRole, clickButton, clickLink, demoNginx, env, fill, heading, json, launch, openPage, screenshot, signIn, tenant } from "./support.mjs";

let browser;
let token;
let nginx;  // the demo image with two versions

const apiGet = (path) => apiJson(token, path);

before(async () => {
  browser = await launch();
  token = await apiLogin();
  nginx = await demoNginx(token);
});
after(async () => browser?.close());

const compareJson = (from, to) => apiGet(`/api/docker-images/${nginx.id}/compare?from=${from.id}&to=${to.id}`);

// The ids a version's findings list holds, not-affected ones aside (the compare leaves them out).
async function findingIds(version) {
  const ids = new Set();
  let path = `/api/docker-images/${nginx.id}/versions/${version.id}/vulnerabilities?limit=200`;
  for (;;) {
    const page = await apiGet(path);
    for (const finding of page.vulnerabilities) if (finding.fixState !== "not-affected") ids.add(finding.id);
    if (!page.nextCursor) return ids;
    path = `/api/docker-images/${nginx.id}/versions/${version.id}/vulnerabilities?limit=200&cursor=${page.nextCursor}`;
  }
}
const minus = (left, right) => [...left].filter((id) => !right.has(id)).sort();

const kLists = ["fixed", "introduced", "remaining", "added", "removed", "changed"];

// The page's summary counts and each list's rows, once the comparison is shown.
async function shownComparison(page, fromTag, toTag) {
  await page.waitForFunction(
    (from, to) => {
      const sides = [...document.querySelectorAll("main dl.facts dd a")].map((link) => link.textContent);
      return sides[0] === from && sides[1] === to && document.querySelector("table.compare-summary");
    },
    { timeout: 10_000 },
    fromTag,
    toTag,
  );
  return page.evaluate((lists) => {
    const counts = Object.fromEntries([...document.querySelectorAll("table.compare-summary tbody tr")].map((row) => [row.dataset.what, Number(row.cells[1].textContent)]));
    const rows = Object.fromEntries(lists.map((what) => [what, [...document.querySelectorAll(`table.compare-${what} tbody tr`)].map((row) => [...row.cells].map((cell) => cell.textContent.trim()))]));
    const headed = Object.fromEntries(lists.map((what) => [what, Number(document.querySelector(`#compare-${what} .tag`).textContent)]));
    return { counts, rows, headed };
  }, kLists);
}

// What the page shows against the API's answer: every count in the summary and beside each
// heading, one row per entry, the vulnerabilities in the API's order with their KEV and EPSS.
function assertShows(shown, answer) {
  const want = {
    fixed: answer.vulnerabilities.fixedCount,
    introduced: answer.vulnerabilities.introducedCount,
    remaining: answer.vulnerabilities.remainingCount,
    added: answer.packages.addedCount,
    removed: answer.packages.removedCount,
    changed: answer.packages.changedCount,
  };
  assert.deepEqual(shown.counts, want, "the summary's counts");
  assert.deepEqual(shown.headed, want, "the counts beside the headings");
  for (const what of ["fixed", "introduced", "remaining"]) {
    const entries = answer.vulnerabilities[what];
    assert.equal(shown.rows[what].length, entries.length, `${what}: one row per vulnerability`);
    assert.deepEqual(
      shown.rows[what].map((cells) => cells[0].split("also")[0]),
      entries.map((entry) => entry.id),
      `${what}: the API's order`,
    );
    entries.forEach((entry, index) => {
      const [, severity, kev, epss] = shown.rows[what][index];
      assert.equal(severity, entry.severity);
      assert.equal(kev.startsWith("yes"), Boolean(entry.kev), `${entry.id}: known exploited`);
      if (entry.kev) assert.ok(kev.includes(entry.kev.dateAdded), kev);
      assert.equal(epss === "none", !entry.epss, `${entry.id}: EPSS`);
      if (entry.epss) assert.ok(epss.startsWith(`${(entry.epss.score * 100).toFixed(1)}%`), epss);
    });
  }
  for (const what of ["added", "removed", "changed"]) {
    assert.equal(shown.rows[what].length, answer.packages[what].length, `${what}: one row per package`);
  }
}

test("compare with latest from the versions table, the pickers turned round, and an unknown version in words", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  const [latest, older] = nginx.versions;
  const answer = await compareJson(older, latest);

  // Counted apart from the compare: ids only the older version's findings hold are fixed, ids
  // only the latest's are introduced. The demo's two versions differ both ways.
  const [olderIds, latestIds] = [await findingIds(older), await findingIds(latest)];
  assert.deepEqual(answer.vulnerabilities.fixed.map((entry) => entry.id).sort(), minus(olderIds, latestIds));
  assert.deepEqual(answer.vulnerabilities.introduced.map((entry) => entry.id).sort(), minus(latestIds, olderIds));
  assert.ok(answer.vulnerabilities.fixedCount + answer.vulnerabilities.introducedCount > 0, "the demo versions differ in vulnerabilities");
  assert.ok(answer.packages.changedCount > 0, "the demo versions differ in packages");
  // The demo's EPSS sample scores its CVEs (its KEV catalogue holds none of them: "no" is shown).
  assert.ok(answer.vulnerabilities.remaining.some((entry) => entry.epss), "some vulnerabilities have an EPSS score");

  await signIn(page, admin(), `/images/${nginx.id}`);
  await heading(page, "nginx");
  await clickLink(page, `Compare with latest (${older.tag} to ${latest.tag})`);
  await heading(page, "Compare versions of nginx");
  assert.deepEqual(Object.fromEntries(new URL(page.url()).searchParams), { from: older.id, to: latest.id });
  assertShows(await shownComparison(page, older.tag, latest.tag), answer);
  await assertAccessible(page, "compare");
  await screenshot(page, "compare");

  // The pickers turned round: what was fixed is introduced, what was added is removed.
  const reverse = await compareJson(latest, older);
  assert.equal(reverse.vulnerabilities.introducedCount, answer.vulnerabilities.fixedCount);
  assert.equal(reverse.packages.removedCount, answer.packages.addedCount);
  await (await byRole(page, "combobox", "From version")).select(latest.id);
  await (await byRole(page, "combobox", "To version")).select(older.id);
  assertShows(await shownComparison(page, latest.tag, older.tag), reverse);
  assert.deepEqual(Object.fromEntries(new URL(page.url()).searchParams), { from: latest.id, to: older.id });

  // A version this image does not have: the API's 404, in its words, with the request id.
  const unknown = "00000000-0000-4000-8000-000000000000";
  const refusal = await api(token, "GET", `/api/docker-images/${nginx.id}/compare?from=${unknown}`);
  assert.equal(refusal.status, 404);
  watched.expectedErrors.push(/status of 404/);
  // As a link within the console would go there (a reload would sign the test's page out).
  await page.evaluate((path) => {
    history.pushState(null, "", path);
    dispatchEvent(new PopStateEvent("popstate"));
  }, `/images/${nginx.id}/compare?from=${unknown}`);
  const alert = await page.waitForSelector("main [role=alert]", { timeout: 10_000 });
  const said = await alert.evaluate((element) => element.textContent);
  assert.ok(said.includes(json(refusal).message), said);
  assert.match(said, /NOT_FOUND \(HTTP 404\) · request id [0-9a-f]+/);
  await assertAccessible(page, "compare refused");
  assertNoProblems(watched);
  await watched.context.close();
});

// The operator's tool, as tools/demo-data runs it; its output without the final newline.
function icatctl(...args) {
  const run = spawnSync(join(env("ICAT_BUILD_DIR"), "bin", "icatctl"), args, { encoding: "utf8" });
  assert.equal(run.status, 0, `icatctl ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.trim();
}

test("a version without a scan: the API's 409, in words, from the versions table", async () => {
  // An image of the test's own with two versions published and none scanned.
  const name = `compare-unscanned-${Date.now()}`;
  const imageId = icatctl("image", "create", "--name", name, "--description", "Two versions, no scan");
  icatctl("license", "grant", "--tenant", tenant(), "--image", name);
  const digest = (n) => `sha256:${String(n).repeat(64)}`;
  icatctl("version", "add", "--image", name, "--tag", "1.0", "--digest", digest(1), "--published", "2026-01-01T00:00:00Z");
  icatctl("version", "add", "--image", name, "--tag", "2.0", "--digest", digest(2), "--published", "2026-02-01T00:00:00Z");
  const image = await apiGet(`/api/docker-images/${imageId}`);
  const [latest, older] = image.versions;
  const refusal = await api(token, "GET", `/api/docker-images/${imageId}/compare?from=${older.id}&to=${latest.id}`);
  assert.equal(refusal.status, 409);

  const watched = await openPage(browser);
  const { page } = watched;
  watched.expectedErrors.push(/status of 409/);
  await signIn(page, admin(), `/images/${imageId}`);
  await heading(page, name);
  await clickLink(page, `Compare with latest (${older.tag} to ${latest.tag})`);
  await heading(page, `Compare versions of ${name}`);
  const alert = await page.waitForSelector("main [role=alert]", { timeout: 10_000 });
  const said = await alert.evaluate((element) => element.textContent);
  assert.ok(said.includes(json(refusal).message), said);
  assert.match(said, /has no scan yet/);
  assert.match(said, /CONFLICT \(HTTP 409\) · request id [0-9a-f]+/);
  await assertAccessible(page, "compare conflict");
  assertNoProblems(watched);
  await watched.context.close();
});

// The look-up's rows as the page shows them: image name, version tag.
async function shownMatches(page, count) {
  await page.waitForFunction((want) => document.querySelectorAll("table.package-matches tbody tr").length === want, { timeout: 10_000 }, count);
  return page.$$eval("table.package-matches tbody tr", (rows) => rows.map((row) => `${row.cells[0].querySelector("a").textContent} ${row.cells[1].querySelector("a").textContent}`));
}
const matchNames = (answer) => answer.matches.map((match) => `${match.image.name} ${match.version.tag}`);

test("package look-up from the navigation: by purl, every version, by name and type, by version range, and a refusal in words", async () => {
  const watched = await openPage(browser);
  const { page } = watched;
  // A package both nginx versions carry in different versions.
  const [latest, older] = nginx.versions;
  const changed = (await compareJson(older, latest)).packages.changed[0];
  const latestOnly = await apiGet(`/api/packages?purl=${encodeURIComponent(changed.purl)}`);
  const everyVersion = await apiGet(`/api/packages?purl=${encodeURIComponent(changed.purl)}&versions=all`);
  assert.ok(everyVersion.matches.length > latestOnly.matches.length, "older versions carry it too");
  assert.ok(matchNames(everyVersion).includes(`nginx ${older.tag}`));

  await signIn(page, admin(), "/images");
  await clickLink(page, "Package look-up");
  await heading(page, "Package look-up");
  await fill(page, "Package URL or name", changed.purl);
  await clickButton(page, "Look up");
  assert.deepEqual(await shownMatches(page, latestOnly.matches.length), matchNames(latestOnly));
  assert.equal(new URL(page.url()).searchParams.get("purl"), changed.purl);
  await assertAccessible(page, "packages");
  await screenshot(page, "packages");

  await (await byRole(page, "checkbox", "Every version")).click();
  await clickButton(page, "Look up");
  assert.deepEqual(await shownMatches(page, everyVersion.matches.length), matchNames(everyVersion));
  assert.equal(new URL(page.url()).searchParams.get("versions"), "all");

  // By name and type, the older version's own package only when its purl names that version.
  const byName = await apiGet(`/api/packages?name=${encodeURIComponent(changed.name)}&type=${changed.type}&versions=all`);
  await fill(page, "Package URL or name", changed.name);
  await fill(page, "Type (with a name)", changed.type);
  await clickButton(page, "Look up");
  await page.waitForFunction((name) => new URL(location.href).searchParams.get("name") === name, {}, changed.name);
  assert.deepEqual(await shownMatches(page, byName.matches.length), matchNames(byName));
  const exact = await apiGet(`/api/packages?purl=${encodeURIComponent(changed.fromPurl)}&versions=all`);
  assert.deepEqual(matchNames(exact), [`nginx ${older.tag}`]);

  // By name and version range: the versions below the latest one's package.
  const below = `<${changed.toVersion}`;
  const inRange = await apiGet(`/api/packages?name=${encodeURIComponent(changed.name)}&versionRange=${encodeURIComponent(below)}&versions=all`);
  assert.ok(matchNames(inRange).includes(`nginx ${older.tag}`) && !matchNames(inRange).includes(`nginx ${latest.tag}`), JSON.stringify(matchNames(inRange)));
  await fill(page, "Type (with a name)", " ");
  await fill(page, "Version range (with a name)", below);
  await clickButton(page, "Look up");
  await page.waitForFunction((range) => new URL(location.href).searchParams.get("versionRange") === range, {}, below);
  assert.deepEqual(await shownMatches(page, inRange.matches.length), matchNames(inRange));
  await (await byRole(page, "textbox", "Version range (with a name)")).evaluate((input) => input.select());
  await page.keyboard.press("Backspace");

  // A type beside a purl: the API's refusal, in its words.
  const refusal = await api(token, "GET", `/api/packages?purl=${encodeURIComponent(changed.purl)}&type=deb`);
  assert.equal(refusal.status, 400);
  watched.expectedErrors.push(/status of 400/);
  await fill(page, "Package URL or name", changed.purl);
  await fill(page, "Type (with a name)", changed.type);
  await clickButton(page, "Look up");
  const alert = await page.waitForSelector("main [role=alert]");
  const said = await alert.evaluate((element) => element.textContent);
  assert.ok(said.includes(json(refusal).message), said);
  assert.match(said, /VALIDATION_ERROR \(HTTP 400\) · request id [0-9a-f]+/);

  // A match links to the version's page.
  await (await byRole(page, "textbox", "Type (with a name)")).evaluate((input) => input.select());
  await page.keyboard.press("Backspace");
  await clickButton(page, "Look up");
  await shownMatches(page, everyVersion.matches.length);
  await clickLink(page, older.tag);
  await heading(page, "nginx");
  assert.equal(new URL(page.url()).searchParams.get("version"), older.id);
  assertNoProblems(watched);
  await watched.context.close();
});
