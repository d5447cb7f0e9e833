#!/usr/bin/env node
// Validates an OpenAPI document with @apidevtools/swagger-parser: exit 0 when valid,
// 1 with the errors on stderr when not, 2 on bad usage. Run with NODE_PATH=build/node/node_modules.
'use strict';

const fs = require('fs');

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('usage: validate-openapi.js FILE');
  process.exit(2);
}

let SwaggerParser;
try {
  SwaggerParser = require('@apidevtools/swagger-parser');
} catch (err) {
  console.error(`validate-openapi: cannot load @apidevtools/swagger-parser (NODE_PATH=${process.env.NODE_PATH || ''}): ${err.message}`);
  process.exit(1);
}

let doc;
try {
  doc = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch (err) {
  console.error(`validate-openapi: ${file} is not readable JSON: ${err.message}`);
  process.exit(1);
}
if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.0')) {
  console.error(`validate-openapi: ${file} is not OpenAPI 3.0 (openapi: ${JSON.stringify(doc.openapi)})`);
  process.exit(1);
}

SwaggerParser.validate(doc)
  .then((api) => {
    console.log(`valid: ${api.info.title} ${api.info.version} (OpenAPI ${api.openapi})`);
  })
  .catch((err) => {
    console.error(`invalid: ${err.message}`);
    process.exit(1);
  });
