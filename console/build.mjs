// Builds the console into OUT_DIR (make passes build/www/console): one JavaScript and one CSS
// bundle named by their content's hash under assets/, and index.html naming them. Everything the
// pages load comes from these files: no other origin, no inline script or style (the CSP forbids
// both), so index.html holds only the two tags.
//
//   node console/build.mjs OUT_DIR NODE_MODULES
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [outDir, nodeModules] = process.argv.slice(2).map((arg) => arg && resolve(arg));
if (!outDir || !nodeModules) {
  console.error("usage: node console/build.mjs OUT_DIR NODE_MODULES");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const esbuild = createRequire(join(nodeModules, "noop.js"))("esbuild");

const assets = join(outDir, "assets");
rmSync(outDir, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const result = await esbuild.build({
  entryPoints: [join(here, "src/main.jsx")],
  bundle: true,
  minify: true,
  sourcemap: false,
  format: "esm",
  target: ["chrome110", "firefox110", "safari16"],
  jsx: "automatic",
  jsxImportSource: "preact",
  nodePaths: [nodeModules],
  entryNames: "[name]-[hash]",
  outdir: assets,
  metafile: true,
  logLevel: "warning",
  legalComments: "linked",
});

copyFileSync(join(here, "favicon.svg"), join(assets, "favicon.svg"));
const outputs = Object.keys(result.metafile.outputs).map((file) => "/" + relative(outDir, file));
const script = outputs.find((file) => file.endsWith(".js"));
const style = outputs.find((file) => file.endsWith(".css"));
if (!script || !style) throw new Error("the build made no script or no style: " + outputs.join(", "));

writeFileSync(
  join(outDir, "index.html"),
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>icat console</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${style}">
<script type="module" src="${script}"></script>
</head>
<body>
<noscript>The icat console needs JavaScript. The APIs are at /v1 and /api (see /api/openapi.json).</noscript>
<div id="app"></div>
</body>
</html>
`,
);
console.log(`console: ${outputs.join(" ")} and index.html in ${outDir}`);
