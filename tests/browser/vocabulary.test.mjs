// The console's lists of the service's words (console/src/vocabulary.js) are the portal API's enums,
// read from the built /api/openapi.json (whose enums tests/unit/vocabulary_test.cpp compares with
// common/include/icat/vocabulary.hpp), checked directly under node.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { kChannelTypes, kDigests, kEvents, kFixStates, kRoles, kScopes, kSeverities, kThresholds } from "../../console/src/vocabulary.js";

const document = JSON.parse(readFileSync(join(process.env.ICAT_BUILD_DIR || "build", "www", "api", "openapi.json"), "utf8"));
const schemas = document.components.schemas;

// The words of a list of words or of [word, label] pairs, and of an enum (null left out), sorted:
// a page may show them in an order of its own.
const words = (list) => list.map((item) => (Array.isArray(item) ? item[0] : item)).filter((word) => word !== "").sort();
const enumWords = (schema) => schema.enum.filter((word) => word !== null).sort();

test("the console offers exactly the words the portal API takes", () => {
  assert.deepEqual(words(kSeverities), enumWords(schemas.Severity));
  assert.deepEqual(words(kFixStates), enumWords(schemas.FixState));
  assert.deepEqual(words(kScopes), enumWords(schemas.ApiKeyRequest.properties.scopes.items));
  assert.deepEqual(words(kRoles), enumWords(schemas.UserRequest.properties.role));
  assert.deepEqual(words(kEvents), enumWords(schemas.EventType));
  assert.deepEqual(words(kThresholds), enumWords(schemas.AdmissionPolicy.properties.severityThreshold));
  assert.deepEqual(words(kChannelTypes), enumWords(schemas.NotificationChannelRequest.properties.type));
  assert.deepEqual(words(kDigests), enumWords(schemas.NotificationChannelRequest.properties.digest));
});

test("severities are listed most severe first, as the API ranks them", () => {
  assert.deepEqual(kSeverities, schemas.Severity.enum);
});
