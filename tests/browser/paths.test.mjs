// The console's address rules (console/src/paths.js), checked directly under node.
import assert from "node:assert/strict";
import { test } from "node:test";
import { comparePath, imagePath, matchPath, safeNext, tenantFromHost } from "../../console/src/paths.js";

test("a page path matches its pattern and names its parameters", () => {
  assert.deepEqual(matchPath("/images/:id", "/images/abc"), { id: "abc" });
  assert.deepEqual(matchPath("/cve/:cveId", "/cve/CVE-2024-1%2F"), { cveId: "CVE-2024-1/" });
  assert.deepEqual(matchPath("/", "/"), {});
  assert.equal(matchPath("/", "/images"), null);
  assert.equal(matchPath("/images", "/"), null);
  assert.equal(matchPath("/images/:id", "/images"), null);
  assert.equal(matchPath("/images/:id", "/images/a/b"), null);
  assert.equal(matchPath("/admission", "/admission/decisions"), null);
});

test("the tenant comes from a tenant's host name only", () => {
  assert.equal(tenantFromHost("acme.icat.example.com"), "acme");
  assert.equal(tenantFromHost("demo.localhost"), "demo");
  assert.equal(tenantFromHost("localhost"), "");
  assert.equal(tenantFromHost("example.com"), "");
  assert.equal(tenantFromHost("127.0.0.1"), "");
  assert.equal(tenantFromHost("[::1]"), "");
  assert.equal(tenantFromHost("Bad_Name.example.com"), "");
});

test("sign-in goes on only to a path of the console", () => {
  assert.equal(safeNext("/images/abc?version=1"), "/images/abc?version=1");
  for (const hostile of ["//evil.example", "/\\evil.example", "https://evil.example/", "javascript:alert(1)", "", undefined, "/\nx"]) {
    assert.equal(safeNext(hostile), "/images", String(hostile));
  }
});

test("an image's page address, at a version when given, its parts encoded", () => {
  assert.equal(imagePath("abc"), "/images/abc");
  assert.equal(imagePath("abc", "v 1"), "/images/abc?version=v%201");
  assert.equal(imagePath("a/b"), "/images/a%2Fb");
});

test("a comparison's address names both versions", () => {
  assert.equal(comparePath("i d", "a", "b/c"), "/images/i%20d/compare?from=a&to=b%2Fc");
  assert.deepEqual(matchPath("/images/:id/compare", "/images/abc/compare"), { id: "abc" });
  assert.equal(matchPath("/images/:id", "/images/abc/compare"), null);
});
