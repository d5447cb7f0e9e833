// A real OpenID Provider on loopback (npm oidc-provider) for the tests and `make run`: clients and
// accounts from a JSON file, its own login page, RS256 ID tokens with a `groups` claim, PKCE required.
//
//   node tests/oidc/provider.mjs --port <p> --config <file.json> [--test-control]
//
// Prints `ready <issuer>` on stdout once it listens on 127.0.0.1 (issuer http://127.0.0.1:<port>;
// --port 0 takes a free port); stops on SIGTERM. The config:
//   {"clients": [{"client_id", "client_secret", "redirect_uris": [..], "token_endpoint_auth_method"?}],
//    "accounts": [{"sub", "email", "email_verified"?, "password", "groups": [..], "name"?}],
//    "token_endpoint_auth_methods"?: [..]}   (what discovery offers; default: basic and post)
// --test-control adds two endpoints for the tests:
//   POST /_test/accounts {"email", "groups"}: that account's groups from now on;
//   POST /_test/tamper {"mode"}: how the id_token of the next token responses is rewritten, until
//   "off": "none" (alg none, no signature), "other-key" (signed by a key not in the JWKS, same kid),
//   "hs256-public" (HS256 keyed with the provider's public key in PEM), "wrong-aud", "expired",
//   "wrong-nonce", "wrong-iss" (each re-signed by the provider's own key).
// oidc-provider comes from $ICAT_BUILD_DIR/node/node_modules (tools/install-deps puts it there).
import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const kTamperModes = ["off", "none", "other-key", "hs256-public", "wrong-aud", "expired", "wrong-nonce", "wrong-iss"];
const kMaxBodyBytes = 64 * 1024;

const { values: options } = parseArgs({
  options: { port: { type: "string" }, config: { type: "string" }, "test-control": { type: "boolean", default: false } },
});
if (options.port === undefined || !options.config) {
  console.error("usage: provider.mjs --port <p> --config <file.json> [--test-control]");
  process.exit(2);
}
const config = JSON.parse(readFileSync(options.config, "utf8"));
const accounts = (config.accounts ?? []).map((account) => ({ email_verified: true, groups: [], ...account }));

const buildDir = process.env.ICAT_BUILD_DIR || join(dirname(fileURLToPath(import.meta.url)), "..", "..", "build");
const require = createRequire(join(buildDir, "node", "node_modules", "noop.js"));
const { default: Provider } = await import(pathToFileURL(require.resolve("oidc-provider")).href);

// The signing key, made fresh each start; the private key also re-signs tampered tokens.
const kid = randomBytes(8).toString("hex");
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const privateJwk = { ...privateKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };

let tamperMode = "off";

const findByEmail = (email) => accounts.find((account) => account.email.toLowerCase() === String(email).toLowerCase());

function claimsOf(account) {
  return {
    sub: account.sub,
    email: account.email,
    email_verified: account.email_verified,
    name: account.name ?? account.email,
    groups: account.groups,
  };
}

const b64url = (value) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

function signRs256(header, payload, key) {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${sign("sha256", Buffer.from(input), key).toString("base64url")}`;
}

// The id_token as the tamper mode makes it, from the provider's genuine one.
function tamper(idToken, mode) {
  const [headerPart, payloadPart] = idToken.split(".");
  const header = JSON.parse(Buffer.from(headerPart, "base64url").toString("utf8"));
  const payload = JSON.parse(Buffer.from(payloadPart, "base64url").toString("utf8"));
  const now = Math.floor(Date.now() / 1000);
  switch (mode) {
    case "none":
      return `${b64url({ ...header, alg: "none" })}.${b64url(payload)}.`;
    case "other-key":
      // The same kid, so the relying party's signature check (not its key look-up) refuses it.
      return signRs256(header, payload, generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey);
    case "hs256-public": {
      const secret = createPublicKey(createPrivateKey({ key: privateJwk, format: "jwk" })).export({ type: "spki", format: "pem" });
      const input = `${b64url({ ...header, alg: "HS256" })}.${b64url(payload)}`;
      return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
    }
    case "wrong-aud":
      return signRs256(header, { ...payload, aud: "another-client" }, privateKey);
    case "expired":
      return signRs256(header, { ...payload, iat: now - 7200, exp: now - 3600 }, privateKey);
    case "wrong-nonce":
      return signRs256(header, { ...payload, nonce: randomBytes(16).toString("base64url") }, privateKey);
    case "wrong-iss":
      return signRs256(header, { ...payload, iss: `${payload.iss}/another-issuer` }, privateKey);
    default:
      return idToken;
  }
}

function makeProvider(issuer) {
  const provider = new Provider(issuer, {
    clients: (config.clients ?? []).map((client) => ({
      grant_types: ["authorization_code"],
      response_types: ["code"],
      ...client,
    })),
    clientAuthMethods: config.token_endpoint_auth_methods ?? ["client_secret_basic", "client_secret_post"],
    jwks: { keys: [privateJwk] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    findAccount: (_ctx, sub) => {
      const account = accounts.find((candidate) => candidate.sub === sub);
      return account && { accountId: sub, claims: () => claimsOf(account) };
    },
    // `groups` with openid, so it is in every ID token whatever the scopes asked.
    claims: { openid: ["sub", "groups"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    // The claims of the granted scopes go into the ID token itself (the relying party reads them there).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // Explicit lifetimes (seconds), short as a test needs; oidc-provider notices each default it uses.
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, Session: 3600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Koa's own messages only; the tests read the server's log on failure.
    renderError: (ctx, out) => {
      ctx.type = "json";
      ctx.body = out;
    },
  });
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route === "token" && tamperMode !== "off" && ctx.body?.id_token) {
      ctx.body = { ...ctx.body, id_token: tamper(ctx.body.id_token, tamperMode) };
    }
  });
  return provider;
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sendHtml(res, status, body) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider: sign in</title><link rel="icon" href="data:,"></head><body>${body}</body></html>`);
}

function sendJson(res, status, value) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(value));
}

function loginForm(uid, clientId, message = "") {
  return `<main><h1>Sign in to the test provider</h1><p>For ${escapeHtml(clientId)}</p>
${message ? `<p role="alert">${escapeHtml(message)}</p>` : ""}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Email <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form></main>`;
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > kMaxBodyBytes) throw new Error("body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

// Consent is granted without asking: every scope the configured client asked for.
async function grantAll(provider, details, accountId) {
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: details.params.client_id });
  grant.addOIDCScope(String(details.params.scope ?? "openid"));
  return grant.save();
}

// GET /interaction/<uid>: the login form (or, when only consent is asked, its automatic grant);
// POST /interaction/<uid>/login: checks the email and password and finishes the interaction.
async function handleInteraction(provider, req, res, uid, action) {
  const details = await provider.interactionDetails(req, res);
  if (req.method === "GET" && !action) {
    if (details.prompt.name === "consent") {
      const grantId = await grantAll(provider, details, details.session.accountId);
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    }
    return sendHtml(res, 200, loginForm(uid, details.params.client_id));
  }
  if (req.method === "POST" && action === "login") {
    const form = new URLSearchParams(await readBody(req));
    const account = findByEmail(form.get("email") ?? "");
    if (!account || account.password !== form.get("password")) {
      return sendHtml(res, 200, loginForm(uid, details.params.client_id, "Wrong email or password."));
    }
    const grantId = await grantAll(provider, details, account.sub);
    return provider.interactionFinished(req, res, { login: { accountId: account.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }
  return sendJson(res, 405, { error: "method not allowed" });
}

// The --test-control endpoints.
async function handleTestControl(req, res, path) {
  if (req.method !== "POST") return sendJson(res, 405, { error: "POST only" });
  const body = JSON.parse((await readBody(req)) || "{}");
  if (path === "/_test/accounts") {
    const account = findByEmail(body.email ?? "");
    if (!account || !Array.isArray(body.groups)) return sendJson(res, 400, { error: "needs the email of an account and groups (an array)" });
    account.groups = body.groups.map(String);
    return sendJson(res, 200, claimsOf(account));
  }
  if (path === "/_test/tamper") {
    if (!kTamperModes.includes(body.mode)) return sendJson(res, 400, { error: `mode must be one of ${kTamperModes.join(", ")}` });
    tamperMode = body.mode;
    return sendJson(res, 200, { mode: tamperMode });
  }
  return sendJson(res, 404, { error: "no such test endpoint" });
}

let provider;
let handleOidc;
const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://127.0.0.1").pathname;
  try {
    const interaction = path.match(/^\/interaction\/([\w-]+)(?:\/(\w+))?$/);
    if (interaction) return await handleInteraction(provider, req, res, interaction[1], interaction[2]);
    if (options["test-control"] && path.startsWith("/_test/")) return await handleTestControl(req, res, path);
    return handleOidc(req, res);
  } catch (error) {
    console.error(`provider: ${req.method} ${path}: ${error.message}`);
    if (!res.headersSent) sendJson(res, 400, { error: error.name ?? "Error", error_description: error.message });
    else res.end();
  }
});

server.listen(Number(options.port), "127.0.0.1", () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  provider = makeProvider(issuer);
  handleOidc = provider.callback();
  console.log(`ready ${issuer}`);
});

process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
