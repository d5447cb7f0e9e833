#!/usr/bin/env node
// Holds the OpenAPI documents to what the service really answers (docs/openapi.md). The replies log
// is what the integration tests recorded (ICAT_REPLIES_LOG, tests/run-tests): every reply to a
// request, every webhook delivery their receiver got.
//
//   openapi-replies.js check LOG     validates each reply against its operation's response for its
//                                    status and content type, each delivery against its event's
//                                    callback, and every committed example (nginx/openapi-examples/);
//                                    fails listing each mismatch, a documented JSON body without an
//                                    example, and an example of nothing documented
//   openapi-replies.js examples LOG  writes nginx/openapi-examples/{v1,api}.json: one recorded reply
//                                    per operation and status (and request body, and event), its
//                                    secrets replaced by fake values of the same shape
//
// The documents are the built ones ($ICAT_BUILD_DIR/www/{v1,api}/openapi.json, examples merged by
// icat-gen openapi). Run with NODE_PATH=build/node/node_modules.
'use strict';

const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');
const addFormats = require('ajv-formats');

const kRepo = path.resolve(__dirname, '..');
const kBuild = process.env.ICAT_BUILD_DIR || path.join(kRepo, 'build');
const kDocuments = ['v1', 'api'];
const kMethods = ['get', 'put', 'post', 'delete', 'patch'];
// A delivery's body is described by the callbacks of this operation (icat-gen openapi makes them).
const kWebhookOperation = 'POST /api/webhooks';

function documentFile(name) { return path.join(kBuild, 'www', name, 'openapi.json'); }
function examplesFile(name) { return path.join(kRepo, 'nginx', 'openapi-examples', `${name}.json`); }
function readJson(file) { return JSON.parse(fs.readFileSync(file, 'utf8')); }

// ------------------------------------------------------------------ OpenAPI 3.0 to JSON Schema

// Strict OpenAPI 3.0.3 semantics: `nullable` widens the `type` of its own schema object and
// nothing else. Examples are dropped (they are what is being checked, not schema).
function toJsonSchema(node) {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' || key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    out[key] = toJsonSchema(value);
  }
  if (node.nullable === true && typeof node.type === 'string') out.type = [node.type, 'null'];
  return out;
}

// ------------------------------------------------------------------ the documents' operations

class Document {
  constructor(name) {
    this.name = name;
    this.doc = readJson(documentFile(name));
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(toJsonSchema(this.doc), name);
    this.validators = new Map();
    // Literal segments before parameters: /api/auth/me before a /api/auth/{x}.
    this.operations = [];
    for (const [template, item] of Object.entries(this.doc.paths)) {
      const pattern = new RegExp('^' + template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+') + '$');
      for (const method of kMethods) {
        if (item[method]) this.operations.push({ key: `${method.toUpperCase()} ${template}`, method, template, pattern, operation: item[method] });
      }
    }
    this.operations.sort((a, b) => (a.template.match(/\{/g) || []).length - (b.template.match(/\{/g) || []).length);
  }

  resolve(node) {
    while (node && node.$ref) node = node.$ref.slice(2).split('/').reduce((n, step) => n[unescape(step)], this.doc);
    return node;
  }

  // The JSON pointer of the node at these steps from the root, $refs on the way followed.
  pointer(...steps) {
    let pointer = '';
    let node = this.doc;
    for (const step of steps) {
      while (node && node.$ref) {
        pointer = node.$ref.slice(1);
        node = this.resolve(node);
      }
      pointer += '/' + String(step).replace(/~/g, '~0').replace(/\//g, '~1');
      node = node === undefined ? undefined : node[step];
    }
    return pointer;
  }

  find(method, urlPath) {
    return this.operations.find((o) => o.method === method.toLowerCase() && o.pattern.test(urlPath));
  }

  // The response object documented for a status: exact, then 4XX/5XX, then default.
  response(operation, status) {
    const responses = operation.operation.responses || {};
    const found = responses[String(status)] || responses[`${String(status)[0]}XX`] || responses.default;
    return found ? this.resolve(found) : undefined;
  }

  // Validation errors of value against the schema at a JSON pointer of this document ([] when valid).
  check(pointer, value) {
    if (!this.validators.has(pointer)) this.validators.set(pointer, this.ajv.compile({ $ref: `${this.name}#${pointer}` }));
    const validate = this.validators.get(pointer);
    if (validate(value)) return [];
    return validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}${e.params && e.params.additionalProperty ? ` (${e.params.additionalProperty})` : ''}${e.params && e.params.allowedValues ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`);
  }

  // Every JSON body the document describes, as "KEY" -> pointer to its schema: "GET /v1/images 200"
  // (a response), "POST /api/webhooks request" (a request body), "event scan.completed" (a delivery).
  bodies() {
    if (this.bodyPointers) return this.bodyPointers;
    const out = new Map();
    const pointerOf = (...steps) => this.pointer(...steps);
    for (const o of this.operations) {
      for (const [status, raw] of Object.entries(o.operation.responses || {})) {
        const r = this.resolve(raw);
        // x-icat-no-example: a body that cannot have one (the document itself).
        if (r.content && r.content['application/json'] && r.content['application/json'].schema && !r['x-icat-no-example']) {
          out.set(`${o.key} ${status}`, pointerOf('paths', o.template, o.method, 'responses', status, 'content', 'application/json', 'schema'));
        }
      }
      const body = this.resolve(o.operation.requestBody);
      if (body && body.content && body.content['application/json']) {
        out.set(`${o.key} request`, pointerOf('paths', o.template, o.method, 'requestBody', 'content', 'application/json', 'schema'));
      }
      for (const [event, callback] of Object.entries(o.operation.callbacks || {})) {
        for (const [expression, item] of Object.entries(callback)) {
          out.set(`event ${event}`, pointerOf('paths', o.template, o.method, 'callbacks', event, expression, 'post', 'requestBody', 'content', 'application/json', 'schema'));
        }
      }
    }
    this.bodyPointers = out;
    return out;
  }
}

function unescape(step) { return decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~'); }

function loadDocuments() {
  return Object.fromEntries(kDocuments.map((name) => [name, new Document(name)]));
}

function documentOf(documents, urlPath) {
  return documents[urlPath.split('/')[1]];
}

// ------------------------------------------------------------------ the replies log

function readLog(file) {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const entries = text.split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line));
  if (entries.length === 0) {
    console.error(`openapi-replies: ${file} recorded no reply: was ICAT_REPLIES_LOG passed to the integration tests?`);
    process.exit(1);
  }
  return entries;
}

function parseJson(text) {
  try { return { value: JSON.parse(text) }; } catch (err) { return { error: err.message }; }
}

// Each recorded exchange matched to its operation: {document, operation, key, status, body?, request?}
// or {skipped: why}. Deliveries: {document, key: "event TYPE", body, headers}.
function classify(documents, entry) {
  if (entry.channel) return { skipped: true, channel: true };  // Slack, Teams: tools/channel-messages.js
  if (entry.webhook) {
    const parsed = parseJson(entry.body);
    const type = parsed.value && typeof parsed.value.type === 'string' ? parsed.value.type : '?';
    return { document: documents.api, key: `event ${type}`, delivery: true, headers: entry.headers, parsed };
  }
  const urlPath = entry.path.split('?')[0];
  const document = documentOf(documents, urlPath);
  const operation = document && document.find(entry.method, urlPath);
  if (!operation) return { skipped: true };
  const type = (entry.contentType || '').split(';')[0].trim().toLowerCase();
  return { document, operation, key: operation.key, status: entry.status, type, entry };
}

// ------------------------------------------------------------------ check

function checkReplies(documents, entries, problems) {
  const counts = Object.fromEntries(kDocuments.map((n) => [n, 0]));
  let skipped = 0;
  let deliveries = 0;
  for (const entry of entries) {
    const c = classify(documents, entry);
    if (c.skipped) { if (!c.channel) skipped++; continue; }
    if (c.delivery) {
      deliveries++;
      checkDelivery(c, problems);
      continue;
    }
    counts[c.document.name]++;
    const where = scrub(`${c.key} -> ${c.status} (${entry.method} ${entry.path.length > 120 ? entry.path.slice(0, 120) + '...' : entry.path})`);
    const response = c.document.response(c.operation, c.status);
    if (!response) { problems.push(`${where}: status ${c.status} is not documented`); continue; }
    const content = response.content || {};
    if (!c.type) {
      if (Object.keys(content).length > 0 && c.status !== 304) problems.push(`${where}: no Content-Type, documented ${Object.keys(content)}`);
      continue;
    }
    const media = Object.keys(content).find((m) => {
      const bare = m.split(';')[0].trim().toLowerCase();
      return bare === c.type || bare === '*/*' || (bare.endsWith('/*') && c.type.startsWith(bare.slice(0, -1)));
    });
    if (!media) { problems.push(`${where}: Content-Type ${c.type} is not documented (${Object.keys(content).join(', ') || 'no body'})`); continue; }
    if (entry.body === undefined || !content[media].schema) continue;
    const parsed = parseJson(entry.body);
    if (parsed.error) { problems.push(`${where}: the body is not JSON: ${parsed.error}`); continue; }
    const pointer = pointerOfResponse(c, media);
    for (const error of c.document.check(pointer, parsed.value)) problems.push(`${where}: ${error}`);
  }
  return { counts, skipped, deliveries };
}

function pointerOfResponse(c, media) {
  const responses = c.operation.operation.responses;
  const first = String(c.status)[0];
  const status = responses[String(c.status)] ? String(c.status) : responses[`${first}XX`] ? `${first}XX` : 'default';
  return c.document.pointer('paths', c.operation.template, c.operation.method, 'responses', status, 'content', media, 'schema');
}

// A delivery: its body against its event's callback, and the headers the callback requires.
function checkDelivery(c, problems) {
  const where = `webhook delivery ${c.key.replace('event ', '')}`;
  if (c.parsed.error) { problems.push(`${where}: the body is not JSON: ${c.parsed.error}`); return; }
  const pointer = c.document.bodies().get(c.key);
  if (!pointer) { problems.push(`${where}: no callback of ${kWebhookOperation} describes this event`); return; }
  for (const error of c.document.check(pointer, c.parsed.value)) problems.push(`${where}: ${error}`);
  const post = pointer.split('/').slice(1, -4).map(unescape).reduce((n, s) => c.document.resolve(n)[s], c.document.doc);
  for (const raw of post.parameters || []) {
    const parameter = c.document.resolve(raw);
    if (parameter.in !== 'header') continue;
    const value = c.headers[parameter.name.toLowerCase()];
    if (value === undefined) {
      if (parameter.required) problems.push(`${where}: header ${parameter.name} is missing`);
    } else if (parameter.schema && parameter.schema.pattern && !new RegExp(parameter.schema.pattern).test(value)) {
      problems.push(`${where}: header ${parameter.name} ${JSON.stringify(value)} does not match ${parameter.schema.pattern}`);
    }
  }
}

// Every documented JSON body has an example, every example is of something documented and fits it.
function checkExamples(documents, problems) {
  const refresh = 'run `make openapi-examples` and commit nginx/openapi-examples/ (docs/openapi.md)';
  for (const document of Object.values(documents)) {
    const file = examplesFile(document.name);
    const examples = fs.existsSync(file) ? readJson(file) : {};
    const bodies = document.bodies();
    for (const [key, pointer] of bodies) {
      if (key.endsWith(' request')) continue;  // request examples where the tests sent one; not required
      if (!(key in examples)) problems.push(`${document.name}: no example of ${key}: ${refresh}`);
    }
    for (const [key, example] of Object.entries(examples)) {
      const pointer = bodies.get(key);
      if (!pointer) { problems.push(`${document.name}: the example of ${key} is of nothing documented: ${refresh}`); continue; }
      for (const error of document.check(pointer, example)) problems.push(`${document.name}: the example of ${key} does not fit: ${error}; ${refresh}`);
    }
  }
}

function check(log) {
  const documents = loadDocuments();
  const problems = [];
  const { counts, skipped, deliveries } = checkReplies(documents, readLog(log), problems);
  checkExamples(documents, problems);
  for (const name of kDocuments) console.log(`openapi-replies: ${counts[name]} replies checked against ${documentFile(name)}`);
  console.log(`openapi-replies: ${deliveries} webhook deliveries checked; ${skipped} replies of no documented operation skipped`);
  if (problems.length > 0) {
    const unique = [...new Set(problems)];
    console.error(`openapi-replies: ${unique.length} mismatches:`);
    for (const p of unique) console.error(`openapi-replies: mismatch: ${p}`);
    process.exit(1);
  }
  console.log('openapi-replies: every reply and every example fits the documents');
}

// ------------------------------------------------------------------ examples

// Fake values of the same shape for what must not be published.
const kSecrets = [
  // API keys: the listed prefix (14 characters, public) kept.
  [/\b[a-z0-9]+_live_[A-Za-z0-9_-]{16,}/g, (m) => m.slice(0, 14) + 'X'.repeat(m.length - 14)],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, (m) => 'whsec_' + 'A'.repeat(m.length - 6)],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, () => 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJleGFtcGxlIn0.' + 'x'.repeat(43)],  // JWTs
  [/([?&]secret=)([A-Z2-7]+)/g, (m, name, secret) => name + fake(secret)],  // a TOTP secret in an otpauth URI
];
const kSecretMembers = new Set(['refreshToken', 'setupToken', 'token', 'key', 'secret', 'accessToken', 'password', 'currentPassword', 'newPassword']);

function scrub(value, member) {
  if (Array.isArray(value)) return value.map((v) => scrub(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, k)]));
  if (typeof value !== 'string') return value;
  let text = value;
  for (const [pattern, replacement] of kSecrets) text = text.replace(pattern, replacement);
  if (text === value && kSecretMembers.has(member) && value.length >= 8) text = fake(value);
  return text;
}

// A secret's fake: each letter or digit replaced by one of its own class, so a pattern that the
// secret fits (base32, hex, base64url) the fake fits too.
function fake(secret) {
  return secret.replace(/[A-Z]/g, 'X').replace(/[a-z]/g, 'x').replace(/[0-9]/g, '7');
}

// How representative a body is: lists with items, then the longest (most fields filled), capped so
// one huge SBOM does not win over a readable reply.
function score(value) {
  const text = JSON.stringify(value);
  const emptyLists = (text.match(/:\[\]/g) || []).length;
  const nulls = (text.match(/:null/g) || []).length;
  return Math.min(text.length, 4000) - 400 * emptyLists - 40 * nulls - (text.length > 20000 ? 100000 : 0);
}

function examples(log) {
  const documents = loadDocuments();
  const best = Object.fromEntries(kDocuments.map((n) => [n, new Map()]));
  const offer = (document, key, value) => {
    const bodies = document.bodies();
    if (!bodies.has(key) || document.check(bodies.get(key), value).length > 0) return;
    const current = best[document.name].get(key);
    if (!current || score(value) > score(current)) best[document.name].set(key, value);
  };
  for (const entry of readLog(log)) {
    const c = classify(documents, entry);
    if (c.skipped) continue;
    if (c.delivery) {
      if (c.parsed.value) offer(c.document, c.key, scrub(c.parsed.value));
      continue;
    }
    if (entry.body !== undefined && c.type === 'application/json') {
      const parsed = parseJson(entry.body);
      if (parsed.value !== undefined) offer(c.document, `${c.key} ${c.status}`, scrub(parsed.value));
    }
    if (entry.request !== undefined && c.status >= 200 && c.status < 300) {
      const parsed = parseJson(entry.request);
      if (parsed.value !== undefined) offer(c.document, `${c.key} request`, scrub(parsed.value));
    }
  }
  // A shared error response (components/responses, inlined with its example in the built document)
  // that this operation never met in the tests takes the reply another operation, of either
  // document, got for the same response: the body is the same.
  const identity = (document, raw) => JSON.stringify(document.resolve(raw), (k, v) => (k === 'example' ? undefined : v));
  const twins = new Map();
  for (const document of Object.values(documents)) {
    for (const o of document.operations) {
      for (const [status, raw] of Object.entries(o.operation.responses || {})) {
        const key = `${o.key} ${status}`;
        if (best[document.name].has(key)) twins.set(`${status} ${identity(document, raw)}`, best[document.name].get(key));
      }
    }
  }
  for (const document of Object.values(documents)) {
    const chosen = best[document.name];
    const bodies = document.bodies();
    for (const o of document.operations) {
      for (const [status, raw] of Object.entries(o.operation.responses || {})) {
        const key = `${o.key} ${status}`;
        const twin = twins.get(`${status} ${identity(document, raw)}`);
        if (!chosen.has(key) && bodies.has(key) && twin !== undefined) chosen.set(key, twin);
      }
    }
    const sorted = Object.fromEntries([...chosen.entries()].sort(([a], [b]) => a.localeCompare(b)));
    fs.mkdirSync(path.dirname(examplesFile(document.name)), { recursive: true });
    fs.writeFileSync(examplesFile(document.name), JSON.stringify(sorted, null, 2) + '\n');
    const missing = [...document.bodies().keys()].filter((k) => !k.endsWith(' request') && !chosen.has(k));
    console.log(`openapi-replies: ${chosen.size} examples written to ${path.relative(kRepo, examplesFile(document.name))}`);
    for (const k of missing) console.log(`openapi-replies: no recorded reply for ${k}`);
  }
}

// ------------------------------------------------------------------ main

const [command, log] = process.argv.slice(2);
if (!log || !['check', 'examples'].includes(command)) {
  console.error('usage: openapi-replies.js check|examples REPLIES_LOG');
  process.exit(2);
}
if (command === 'check') check(log); else examples(log);
