// make bench's peer (issue 33): the same reads written as a typical Node service would write them,
// fastify and node-postgres, no nginx, API keys cached in the process (a Map after the first
// Postgres look-up), on the same Postgres, role and data as our stack. It prepares our handlers'
// own statements (build/bin/bench-statements prints them) and shapes each reply as our handlers
// do, so bench/run can check that both answer the same before measuring either.
//
//   PEER_PORT (required) loopback port, PEER_STATEMENTS (required) the statements' JSON,
//   ICAT_BUILD_DIR (required) the build whose node/node_modules holds fastify and pg (make deps),
//   ICAT_PG_DSN the stack's libpq settings (host, port, dbname, user), PEER_PROCESSES (1) node
//   processes (node:cluster), PEER_POOL (8) Postgres connections per process.
import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// fastify and pg come from tools/node's lock, installed under the build (tools/install-deps).
const require = createRequire(join(process.env.ICAT_BUILD_DIR, 'node', 'node_modules', 'noop.js'));
const Fastify = require('fastify');
const pg = require('pg');

const PROCESSES = Number(process.env.PEER_PROCESSES ?? 1);
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'unknown'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VULN_ID = /^(CVE-\d{4}-\d{4,}|GHSA(-[0-9A-Z]{4}){3})$/;
const PAGE = 50;  // make bench's limit=50

// libpq's "key=value ..." settings as node-postgres takes them (a unix socket's directory as host).
function pgSettings(dsn) {
  const given = Object.fromEntries(dsn.trim().split(/\s+/).map((pair) => pair.split('=')));
  return { host: given.host, port: Number(given.port ?? 5432), database: given.dbname, user: given.user };
}

// Our handlers' statements by name, each run as a node-postgres named (prepared) query.
const STATEMENTS = JSON.parse(readFileSync(process.env.PEER_STATEMENTS, 'utf8'));
const statement = (name, values) => ({ name, text: STATEMENTS[name], values });

class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
const notFound = (message) => new HttpError(404, 'NOT_FOUND', message);

// ------------------------------------------------------------------ Postgres

const pool = new pg.Pool({ ...pgSettings(process.env.ICAT_PG_DSN ?? ''), max: Number(process.env.PEER_POOL ?? 8) });

// One transaction as the tenant, as our handlers read (the tenant a transaction-local setting, so
// the row-level policies apply); BEGIN and the setting go as one simple query: the tenant is a
// UUID from our own key look-up, never the request's text.
async function asTenant(tenant, work) {
  if (!UUID.test(tenant)) throw new Error('not a tenant id');
  const client = await pool.connect();
  try {
    await client.query(`BEGIN; SELECT set_config('app.tenant_id', '${tenant}', true)`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

// API keys by their SHA-256: live ones stay in the process once looked up (no Redis, no rate limit).
const keys = new Map();
const bearerOf = (request) => /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
async function principal(request, scope) {
  const bearer = bearerOf(request);
  if (!bearer) throw new HttpError(401, 'UNAUTHENTICATED', 'An API key is required.');
  const hash = createHash('sha256').update(bearer).digest();
  let key = keys.get(hash.toString('hex'));
  if (!key) {
    const { rows } = await pool.query(statement('peer_lookup_key', [hash]));
    const row = rows[0];
    const expired = row?.expires_at != null && Number(row.expires_at) <= Date.now() / 1000;
    if (!row || row.revoked || expired) throw new HttpError(401, 'UNAUTHENTICATED', 'Unknown API key.');
    key = { tenant: row.tenant_id, scopes: row.scopes };
    keys.set(hash.toString('hex'), key);
  }
  if (!key.scopes.includes(scope)) throw new HttpError(403, 'INSUFFICIENT_SCOPE', `Needs ${scope}.`);
  return key;
}
// The key's record by its hash, through the function our pools call (sql: auth_api_key).
STATEMENTS.peer_lookup_key = 'SELECT tenant_id, scopes, extract(epoch FROM expires_at)::bigint AS expires_at, ' +
  'revoked_at IS NOT NULL AS revoked FROM auth_api_key($1::bytea)';

// ------------------------------------------------------------------ replies, as our handlers shape them

const count = (value) => Number(value ?? 0);
const number = (value) => (value == null ? null : Number(value));
const cursor = (...fields) => Buffer.from(fields.join('\n')).toString('base64url');

function counts(row) {
  return {
    vulnerabilityCounts: Object.fromEntries(SEVERITIES.map((s) => [s, count(row[`${s}_count`])])),
    vexExcludedCount: count(row.vex_excluded_count),
  };
}

function scanStatus(scannedAt) {
  return { scanStatus: scannedAt == null ? 'unscanned' : 'scanned', lastScannedAt: scannedAt ?? null };
}

// A version of get_image/list_images (the image's latest) or of list_versions (withFigures).
function version(row, withFigures) {
  const v = {
    id: row.version_id, tag: row.tag, digest: row.digest, sizeBytes: number(row.size_bytes),
    publishedAt: row.published_at, hardeningTags: row.hardening_tags, ...scanStatus(row.scanned_at),
  };
  if (!withFigures) return v;
  return {
    ...v, ...counts(row), sbomCompleteness: row.sbom_completeness ?? null, knownExploited: number(row.known_exploited),
    pullCount: count(row.pull_count), lastPulledAt: row.last_pulled_at ?? null,
  };
}

function imageFields(row) {
  return {
    id: row.id, name: row.name, description: row.description, repository: row.repository, baseOs: row.base_os ?? null,
    latestVersion: row.version_id == null ? null : version(row, false),
  };
}

function imageDetail(image, versions) {
  const latest = versions.find((v) => v.version_id === image.version_id);
  const shown = imageFields(image);
  if (shown.latestVersion) {
    shown.latestVersion.pullCount = count(latest?.pull_count);
    shown.latestVersion.lastPulledAt = latest?.last_pulled_at ?? null;
  }
  return {
    ...shown, sizeBytes: number(image.size_bytes), ...counts(image), ...scanStatus(image.scanned_at),
    sbomCompleteness: latest?.sbom_completeness ?? null, versions: versions.map((v) => version(v, true)),
  };
}

function feeds(row) {
  return {
    epss: row.epss_score == null ? null
      : { score: Number(row.epss_score), percentile: Number(row.epss_percentile), date: row.epss_date },
    kev: row.kev_date_added == null ? null
      : { dateAdded: row.kev_date_added, dueDate: row.kev_due_date, knownRansomwareCampaignUse: row.kev_ransomware ?? null },
  };
}

function vex(row) {
  if (row.vex_status == null) return null;
  return {
    status: row.vex_status, justification: row.vex_justification ?? null, impactStatement: row.vex_impact ?? null,
    statementTime: row.vex_time, author: row.vex_author,
  };
}

function finding(row) {
  return {
    id: row.vuln_id, aliases: row.aliases,
    package: { name: row.package_name, version: row.package_version, type: row.package_type, purl: row.purl },
    severity: row.severity, cvssScore: number(row.cvss_score), fixState: row.fix_state,
    fixedVersion: row.fixed_version, title: row.title, url: row.primary_url, severitySources: row.severity_sources,
    severitySource: row.severity_source, vex: vex(row), ...feeds(row),
  };
}

function vulnerabilityList(rows) {
  const s = rows[0];
  const reply = {
    image: { id: s.image_id, name: s.image_name },
    version: s.version_id == null ? null : { id: s.version_id, tag: s.tag, digest: s.digest },
    scan: s.scan_id == null ? null : {
      id: s.scan_id, scanner: s.scanner_name, scannerVersion: s.scanner_version, scannedAt: s.scanned_at,
      vulnDbUpdatedAt: s.vulndb_updated_at,
    },
    ...scanStatus(s.scanned_at),
  };
  if (s.scan_id == null) {
    for (const key of ['vulnerabilityCounts', 'vexExcludedCount', 'findingCounts', 'fixableCount', 'vulnerabilities', 'nextCursor']) {
      reply[key] = null;
    }
    return reply;
  }
  const findings = rows.slice(0, PAGE).filter((row) => row.finding_id != null);
  return {
    ...reply, ...counts(s),
    findingCounts: Object.fromEntries(SEVERITIES.map((x) => [x, count(s[`findings_${x}`])])),
    fixableCount: count(s.fixable_count), vulnerabilities: findings.map(finding),
    nextCursor: rows.length > PAGE ? cursor(s.scan_id, String(findings.at(-1).finding_id)) : null,
  };
}

// The rows of cve_lookup_latest (or unscanned_latest), by image, then version.
function byImage(rows, versionOf) {
  const images = [];
  for (const row of rows) {
    let image = images.at(-1);
    if (image?.id !== row.image_id) {
      image = { id: row.image_id, name: row.image_name, repository: row.repository, versions: [] };
      images.push(image);
    }
    versionOf(image.versions, row);
  }
  return images;
}

function cveLookup(cveId, matches, unscanned) {
  const base = (row) => ({ id: row.version_id, tag: row.tag, digest: row.digest, latest: row.latest });
  return {
    cveId, versions: 'latest',
    images: byImage(matches, (versions, row) => {
      let v = versions.at(-1);
      if (v?.id !== row.version_id) {
        v = { ...base(row), scan: { id: row.scan_id, scannedAt: row.scanned_at }, packages: [] };
        versions.push(v);
      }
      v.packages.push({
        vulnerabilityId: row.vuln_id, name: row.package_name, version: row.package_version, type: row.package_type,
        purl: row.purl, severity: row.severity, fixState: row.fix_state, fixedVersion: row.fixed_version,
        vex: vex(row), ...feeds(row),
      });
    }),
    unscannedImages: byImage(unscanned, (versions, row) => versions.push(base(row))),
  };
}

// ------------------------------------------------------------------ admission (the default policy)

// The peer judges by the default policy only (docs/admission.md): enforce, catalogue images,
// scanned, nothing at or above critical, kube-system exempt, the vendor's VEX trusted. make bench's
// tenant stores none; a tenant that does gets an error, never a judgement by other rules.
const POD_SPECS = {
  '/Pod': ['spec'], '/ReplicationController': ['spec', 'template', 'spec'],
  'apps/Deployment': ['spec', 'template', 'spec'], 'apps/ReplicaSet': ['spec', 'template', 'spec'],
  'apps/StatefulSet': ['spec', 'template', 'spec'], 'apps/DaemonSet': ['spec', 'template', 'spec'],
  'batch/Job': ['spec', 'template', 'spec'], 'batch/CronJob': ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};
const CRITICAL = 4;  // the severity rank of the default threshold
// critical 4 down to unknown 0, as icat/vocabulary.hpp ranks them (an unknown word: 0).
const severityRank = (severity) => (SEVERITIES.includes(severity) ? 4 - SEVERITIES.indexOf(severity) : 0);
const invalid = (message) => new HttpError(400, 'VALIDATION_ERROR', message);

// The review's request and its distinct images in order, each with the containers naming it.
function readReview(body) {
  const request = body?.request;
  if (body?.apiVersion !== 'admission.k8s.io/v1' || body?.kind !== 'AdmissionReview' || typeof request !== 'object') {
    throw invalid('Not an admission.k8s.io/v1 AdmissionReview.');
  }
  if (!request.uid || !request.operation || !request.kind?.kind) throw invalid('request: uid, kind and operation are required.');
  const object = request.object ?? null;
  const out = {
    uid: request.uid, operation: request.operation, kind: request.kind.kind,
    namespace: request.namespace || object?.metadata?.namespace || '',
    name: request.name || object?.metadata?.name || object?.metadata?.generateName || '',
    dryRun: request.dryRun === true, images: [],
  };
  const path = POD_SPECS[`${request.kind.group ?? ''}/${request.kind.kind}`];
  if (!path || !['CREATE', 'UPDATE'].includes(out.operation) || !object) return out;
  if (out.operation === 'UPDATE') throw invalid('The peer judges CREATE only.');
  const spec = path.reduce((at, member) => at?.[member], object);
  for (const [list, label] of [['containers', 'container'], ['initContainers', 'initContainer'], ['ephemeralContainers', 'ephemeralContainer']]) {
    (spec?.[list] ?? []).forEach((container, i) => {
      if (!container?.image) return;
      const where = `${label} ${container.name ?? `#${i}`}`;
      const seen = out.images.find((image) => image.reference === container.image);
      if (seen) seen.containers.push(where);
      else out.images.push({ reference: container.image, containers: [where] });
    });
  }
  return out;
}

// An image reference as our webhook reads it (domain, path, tag, digest), or null.
function parseReference(text) {
  const match = /^(.+?)(?::([\w][\w.-]{0,127}))?(?:@(sha256:[0-9a-f]{64}))?$/.exec(text);
  if (!match || match[1].includes('@')) return null;
  let [, name, tag, digest] = match;
  const slash = name.indexOf('/');
  const head = slash < 0 ? '' : name.slice(0, slash);
  let domain = 'docker.io';
  if (head && (head.includes('.') || head.includes(':') || head === 'localhost')) {
    domain = head.toLowerCase();
    name = name.slice(slash + 1);
  }
  if (!/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(name)) return null;
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !name.includes('/')) name = `library/${name}`;
  const repository = `${domain}/${name}`;
  return {
    repository, digest: digest ?? null, tag: tag ?? null, effectiveTag: tag ?? 'latest',
    normalised: repository + (tag ? `:${tag}` : '') + (digest ? `@${digest}` : '') + (!tag && !digest ? ':latest' : ''),
  };
}

const cveList = (ids) => ids.slice(0, 20).join(', ') + (ids.length > 20 ? ` and ${ids.length - 20} more` : '');
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const sortedUnique = (ids) => [...new Set(ids)].sort();

// The rules of the default policy on one image (resolved: its version, findings by id).
function judge(image) {
  const reasons = [];
  image.vendorNotAffected = [];
  if (!image.ref) {
    reasons.push({ rule: 'imageReference', message: 'not a valid image reference', cves: [] });
  } else if (!image.resolution) {
    const what = image.ref.digest ? `digest ${image.ref.digest}` : `${image.ref.repository}:${image.ref.effectiveTag}`;
    reasons.push({ rule: 'requireCatalogImages', message: `${what} is not a version of your licensed catalogue`, cves: [] });
  } else {
    const r = image.resolution;
    const tagged = `${r.image_name}:${r.tag}`;
    if (!r.scanned) {
      reasons.push({ rule: 'requireScan', message: `${tagged} has never been scanned, so its vulnerabilities are unknown`, cves: [] });
    }
    const counted = [...r.counted.values()];
    const excluded = [...r.vendor.keys()].filter((id) => !r.counted.has(id));
    const cves = sortedUnique(counted.filter((f) => f.rank >= CRITICAL).map((f) => f.id));
    if (cves.length > 0) {
      const vendorBreaking = sortedUnique(excluded.filter((id) => r.vendor.get(id).rank >= CRITICAL));
      const note = vendorBreaking.length ? `; not counted, as the vendor's VEX marks them not_affected: ${cveList(vendorBreaking)}` : '';
      reasons.push({
        rule: 'severityThreshold',
        message: `${plural(cves.length, 'vulnerability', 'vulnerabilities')} at or above critical in ${tagged}: ${cveList(cves)}${note}`,
        cves,
      });
    }
    image.vendorNotAffected = sortedUnique(excluded);
  }
  image.reasons = reasons;
  image.outcome = reasons.length ? 'failed' : 'passed';
}

// The versions of the pending images (one statement), then their findings the threshold keeps.
async function resolve(c, tenant, pending) {
  if (pending.length === 0) return;
  const { rows } = await c.query(statement('admission_resolve_images', [tenant, pending.map((i) => i.ref.digest ?? ''),
    pending.map((i) => i.ref.repository), pending.map((i) => i.ref.effectiveTag)]));
  for (const row of rows) pending[Number(row.n) - 1].resolution = { ...row, counted: new Map(), vendor: new Map() };
  const byVersion = new Map(pending.filter((i) => i.resolution).map((i) => [i.resolution.version_id, i.resolution]));
  if (byVersion.size === 0) return;
  const found = await c.query(statement('admission_findings', [[...byVersion.keys()], CRITICAL, [], false, null]));
  for (const f of found.rows) {
    const r = byVersion.get(f.version_id);
    const into = f.vendor_not_affected ? r.vendor : r.counted;
    const rank = severityRank(f.severity);
    into.set(f.vuln_id, { id: f.vuln_id, rank: Math.max(rank, into.get(f.vuln_id)?.rank ?? -1) });
  }
}

function decisionImages(images) {
  return images.map((i) => ({
    reference: i.reference, normalised: i.ref?.normalised ?? null, containers: i.containers, outcome: i.outcome,
    imageId: i.resolution?.image_id ?? null, versionId: i.resolution?.version_id ?? null,
    ...(i.exemptBy ? { exemptBy: i.exemptBy } : {}),
    ...(i.vendorNotAffected?.length ? { vendorNotAffectedCves: i.vendorNotAffected } : {}),
  }));
}

async function admit(key, keyText, body) {
  const review = readReview(body);
  return asTenant(key.tenant, async (c) => {
    const rules = (await c.query(statement('admission_tenant_rules', [key.tenant]))).rows[0];
    if (rules.policy != null) throw new Error('the peer judges by the default policy only');
    const images = review.images.map((use) => ({ ...use, ref: parseReference(use.reference) }));
    for (const image of images) {
      if (review.namespace === 'kube-system') {
        image.outcome = 'exempt';
        image.exemptBy = `namespace ${review.namespace}`;
      }
    }
    const pending = images.filter((i) => !i.outcome && i.ref);
    await resolve(c, key.tenant, pending);
    images.filter((i) => !i.outcome).forEach(judge);
    const failed = images.filter((i) => i.outcome === 'failed');
    const response = { uid: review.uid, allowed: failed.length === 0 };
    if (failed.length) {
      const shown = failed.slice(0, 50).map((i) =>
        ` [${i.reference} (${i.containers.join(', ')}): ${i.reasons.map((r) => `${r.rule}: ${r.message}`).join('; ')}]`);
      const more = failed.length > 50 ? ` and ${plural(failed.length - 50, 'more image', 'more images')} (the decision record lists them all)` : '';
      response.status = { code: 403, reason: 'Forbidden', message: `icat admission policy denied ${plural(failed.length, 'image', 'images')}:${shown.join('')}${more}` };
    }
    const reasons = images.flatMap((i) => (i.reasons ?? []).map((r) => ({ image: i.reference, ...r })));
    await c.query(statement('admission_async_commit', []));
    await c.query(statement('admission_record_decision', [key.tenant, review.uid, review.operation, review.kind,
      review.namespace, review.name, JSON.stringify(decisionImages(images)), response.allowed, 'enforce', review.dryRun,
      JSON.stringify(reasons), keyText.slice(0, 14)]));
    return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
  });
}

// ------------------------------------------------------------------ routes (make bench's requests)

function routes(app) {
  app.get('/v1/images', async (request) => {
    const key = await principal(request, 'read:catalog');
    const { rows } = await asTenant(key.tenant, (c) => c.query(statement('list_images', [key.tenant, null, null, null, PAGE + 1])));
    const shown = rows.slice(0, PAGE);
    return {
      images: shown.map((row) => ({ ...imageFields(row), ...counts(row) })),
      nextCursor: rows.length > PAGE ? cursor(shown.at(-1).name, shown.at(-1).id) : null,
    };
  });

  app.get('/v1/images/:id', async (request) => {
    const key = await principal(request, 'read:catalog');
    const { id } = request.params;
    if (!UUID.test(id)) throw notFound('No such image.');
    const [image, versions] = await asTenant(key.tenant, async (c) => [
      (await c.query(statement('get_image', [key.tenant, id]))).rows[0],
      (await c.query(statement('list_versions', [key.tenant, id]))).rows,
    ]);
    if (!image) throw notFound('No such image.');
    return imageDetail(image, versions);
  });

  app.get('/v1/images/:id/vulnerabilities', async (request) => {
    const key = await principal(request, 'read:vulns');
    const { id } = request.params;
    if (!UUID.test(id)) throw notFound('No such image.');
    const { rows } = await asTenant(key.tenant, (c) => c.query(statement('findings_of_latest_version',
      [key.tenant, id, null, null, null, PAGE + 1, null, null])));
    if (rows.length === 0) throw notFound('No such image.');
    return vulnerabilityList(rows);
  });

  app.post('/v1/admission', async (request) => {
    const key = await principal(request, 'admission');
    return admit(key, bearerOf(request), request.body);
  });

  app.get('/v1/cve/:cveId', async (request) => {
    const key = await principal(request, 'read:vulns');
    const cveId = request.params.cveId.toUpperCase();
    if (!VULN_ID.test(cveId)) throw new HttpError(400, 'VALIDATION_ERROR', 'cveId: must look like CVE-2024-3094.');
    const [matches, unscanned] = await asTenant(key.tenant, async (c) => [
      (await c.query(statement('cve_lookup_latest', [key.tenant, cveId]))).rows,
      (await c.query(statement('unscanned_latest', [key.tenant]))).rows,
    ]);
    return cveLookup(cveId, matches, unscanned);
  });
}

async function serve() {
  const app = Fastify({ logger: false });
  app.setErrorHandler((error, request, reply) => {
    const status = error instanceof HttpError ? error.status : 500;
    if (status === 500) console.error(error);
    reply.code(status).send({ error: { code: error.code ?? 'INTERNAL', message: error.message } });
  });
  routes(app);
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PEER_PORT) });
}

// One process per PEER_PROCESSES, sharing the port (node:cluster); a worker that dies ends the peer.
if (PROCESSES > 1 && cluster.isPrimary) {
  for (let i = 0; i < PROCESSES; i++) cluster.fork();
  cluster.on('exit', () => process.exit(1));
  process.on('SIGTERM', () => { for (const w of Object.values(cluster.workers)) w.kill('SIGTERM'); process.exit(0); });
} else {
  await serve();
}
