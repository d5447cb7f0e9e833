#!/usr/bin/env node
// Verifies attestations the way a tenant's pipeline does with the sigstore project's own JavaScript
// libraries, offline (docs/attestations.md): @sigstore/bundle's bundleFromJSON, then @sigstore/verify's
// Verifier over toTrustMaterial with no certificate authorities, timestamp authorities or logs, a key
// finder that knows only the published key set, and thresholds 0. Then what the signature covers:
// an in-toto Statement v1 about the expected subject digest, of the expected predicate type, whose
// predicate is the served document (equal as parsed JSON, and its bytes verbatim in the payload).
//
//   verify-attestations.js INPUT.json
//
// INPUT: {"keys": <the reply of GET /v1/signing-keys>, "attestations": [{"label", "bundle": <the
// downloaded bundle's text>, "subjectDigest": "sha256:<hex>", "subjectName"?, "predicateType",
// "document": <the served document's text>}]}. Prints "ok LABEL" or "FAIL LABEL: <check>: <why>" per
// attestation, <check> one of bundle, key, signature, verification (another
// refusal of the verifier), payloadType, statement, subject, predicateType,
// predicate; exits 1 when any failed. Run with NODE_PATH=build/node/node_modules.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const util = require('util');
const { bundleFromJSON } = require('@sigstore/bundle');
const { Verifier, toSignedEntity, toTrustMaterial } = require('@sigstore/verify');

const kStatementType = 'https://in-toto.io/Statement/v1';
const kPayloadType = 'application/vnd.in-toto+json';

class CheckFailed extends Error {
  constructor(check, message) {
    super(message);
    this.check = check;
  }
}

// The verifier of one key set: a bundle's hint must name a published attestation key.
function verifierOf(keySet) {
  const keys = new Map(keySet.keys.filter((k) => k.algorithm === 'ECDSA-P256').map((k) => [k.id, k.publicKeyPem]));
  const keyFinder = (hint) => {
    if (!keys.has(hint)) throw new CheckFailed('key', `key ${JSON.stringify(hint)} is not in the published key set`);
    return { publicKey: crypto.createPublicKey(keys.get(hint)), validFor: () => true };
  };
  const trust = toTrustMaterial({ certificateAuthorities: [], timestampAuthorities: [], tlogs: [], ctlogs: [] }, keyFinder);
  return new Verifier(trust, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 });
}

function verifyOne(verifier, a) {
  let bundle;
  try {
    bundle = bundleFromJSON(JSON.parse(a.bundle));
  } catch (e) {
    throw new CheckFailed('bundle', e.message);
  }
  try {
    verifier.verify(toSignedEntity(bundle));
  } catch (e) {
    if (e instanceof CheckFailed) throw e;
    throw new CheckFailed(e.code === 'SIGNATURE_ERROR' ? 'signature' : 'verification', `${e.code || e.name}: ${e.message}`);
  }
  // Only what the signature covers from here on.
  if (bundle.content.$case !== 'dsseEnvelope') throw new CheckFailed('bundle', `it holds a ${bundle.content.$case}`);
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.payloadType !== kPayloadType) throw new CheckFailed('payloadType', envelope.payloadType);
  const payload = Buffer.from(envelope.payload).toString('utf8');
  let statement;
  try {
    statement = JSON.parse(payload);
  } catch (e) {
    throw new CheckFailed('statement', `the payload is not JSON: ${e.message}`);
  }
  if (statement._type !== kStatementType) throw new CheckFailed('statement', `_type ${statement._type}`);
  const subjects = statement.subject || [];
  const wanted = a.subjectDigest.replace(/^sha256:/, '');
  if (subjects.length !== 1 || !subjects[0].digest || subjects[0].digest.sha256 !== wanted) {
    throw new CheckFailed('subject', `the statement is about ${JSON.stringify(subjects)}, not sha256:${wanted}`);
  }
  if (a.subjectName !== undefined && subjects[0].name !== a.subjectName) {
    throw new CheckFailed('subject', `the subject is named ${subjects[0].name}, not ${a.subjectName}`);
  }
  if (statement.predicateType !== a.predicateType) {
    throw new CheckFailed('predicateType', `${statement.predicateType}, not ${a.predicateType}`);
  }
  if (!util.isDeepStrictEqual(statement.predicate, JSON.parse(a.document))) {
    throw new CheckFailed('predicate', 'the predicate is not the served document');
  }
  if (!payload.includes(a.document)) throw new CheckFailed('predicate', 'the payload does not hold the document verbatim');
}

function main() {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: verify-attestations.js INPUT.json');
    process.exit(2);
  }
  const input = JSON.parse(fs.readFileSync(file, 'utf8'));
  const verifier = verifierOf(input.keys);
  let failed = 0;
  for (const a of input.attestations) {
    try {
      verifyOne(verifier, a);
      console.log(`ok ${a.label}`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${a.label}: ${e.check || 'error'}: ${e.message}`);
    }
  }
  process.exit(failed > 0 ? 1 : 0);
}

main();
