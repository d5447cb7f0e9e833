// Validates every object of a multi-document YAML stream (stdin) against the Kubernetes OpenAPI
// schemas of npm's kubernetes-models, offline. Prints one line per object; exits 1 when one is
// invalid or of a kind it has no model for. Run by tools/lint-deploy with NODE_PATH=build/node/node_modules.
'use strict';
const fs = require('fs');
const YAML = require('yaml');

// "apps/v1" -> kubernetes-models/apps/v1, "v1" -> kubernetes-models/v1.
function modelOf(apiVersion, kind) {
  try {
    return require(`kubernetes-models/${apiVersion}`)[kind];
  } catch (err) {
    return undefined;
  }
}

let failed = 0;
const documents = YAML.parseAllDocuments(fs.readFileSync(0, 'utf8'));
for (const document of documents) {
  const object = document.toJS();
  if (!object) continue;
  const name = `${object.kind}/${object.metadata && object.metadata.name}`;
  // kustomize folds long base64 values over lines; the API server's decoder skips the newlines,
  // the schema's "byte" format does not.
  if (object.kind === 'Secret' && object.data) {
    for (const key of Object.keys(object.data)) object.data[key] = String(object.data[key]).replace(/\s+/g, '');
  }
  const Model = modelOf(object.apiVersion, object.kind);
  if (!Model) {
    console.error(`validate-kubernetes: ${name}: no schema for ${object.apiVersion} ${object.kind}`);
    failed = 1;
    continue;
  }
  try {
    new Model(object).validate();
    console.log(`valid: ${name}`);
  } catch (err) {
    console.error(`validate-kubernetes: ${name}: ${err.message}`);
    failed = 1;
  }
}
if (documents.length === 0) {
  console.error('validate-kubernetes: no objects on stdin');
  failed = 1;
}
process.exit(failed);
