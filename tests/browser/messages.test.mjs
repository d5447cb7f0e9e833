// The channel messages as people see them, for docs/notifications.md: real messages the dispatcher
// sent to the integration tests' receivers (recorded by tools/channel-messages.js into
// $ICAT_BUILD_DIR/channel-messages; make test runs the integration tests first), rendered in chromium:
// the Teams card by Microsoft's own renderer (npm adaptivecards), the Slack blocks by the small
// renderer below (Slack has no offline one: this is our rendering of Block Kit). Also: the check
// of those messages refuses broken ones.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { env, launch } from "./support.mjs";

const require = createRequire(join(env("ICAT_BUILD_DIR"), "node", "node_modules", "noop.js"));
const { checkMessage } = require(join(env("ICAT_REPO"), "tools", "channel-messages.js"));
const recorded = join(env("ICAT_BUILD_DIR"), "channel-messages");
const noRecording = existsSync(recorded) ? false : `no recorded messages in ${recorded}: run the integration tests first`;

// The recorded message of a service that shows the most (the longest body): a list of
// vulnerabilities with "and N more".
function richest(type) {
  const files = readdirSync(recorded).filter((name) => name.startsWith(type + "-"));
  assert.ok(files.length > 0, `no ${type} message recorded`);
  const bodies = files.map((name) => readFileSync(join(recorded, name), "utf8"));
  const body = bodies.reduce((longest, next) => (next.length > longest.length ? next : longest));
  assert.deepEqual(checkMessage(type, body), [], `the ${type} message is valid`);
  return JSON.parse(body);
}

// The rendered message alone, for the docs (when ICAT_SCREENSHOT_DIR is set, as for the console's).
async function screenshot(element, name) {
  const dir = process.env.ICAT_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await element.screenshot({ path: join(dir, `${name}.png`) });
}

let browser;
before(async () => (browser = await launch()));
after(async () => browser?.close());

async function blankPage() {
  const page = await (await browser.createBrowserContext()).newPage();
  await page.setViewport({ width: 900, height: 700 });
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors };
}

// ------------------------------------------------------------------ Slack, our rendering

const escapeHtml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

// Slack's mrkdwn arrives with &, < and > already escaped (Slack requires it), so the only raw angle
// brackets left are links: <url|text> and <url>.
function mrkdwn(text) {
  return text
    .replace(/<([^|>]+)\|([^>]+)>/g, '<a href="$1">$2</a>')
    .replace(/<(https?:[^>]+)>/g, '<a href="$1">$1</a>')
    .replace(/\*([^*\n]+)\*/g, "<b>$1</b>")
    .replace(/(^|\s)_([^_\n]+)_/g, "$1<i>$2</i>")
    .replace(/~([^~\n]+)~/g, "<s>$1</s>")
    .replace(/`([^`\n]+)`/g, "<code>$1</code>")
    .replace(/\n/g, "<br>");
}

const textHtml = (t) => (t.type === "mrkdwn" ? mrkdwn(t.text) : escapeHtml(t.text));

function blockHtml(block) {
  switch (block.type) {
    case "header":
      return `<h3 class="header">${textHtml(block.text)}</h3>`;
    case "section":
      return `<div class="section">${block.text ? `<div>${textHtml(block.text)}</div>` : ""}${
        block.fields ? `<div class="fields">${block.fields.map((f) => `<div>${textHtml(f)}</div>`).join("")}</div>` : ""
      }</div>`;
    case "context":
      return `<div class="context">${block.elements.map((e) => `<span>${textHtml(e)}</span>`).join("")}</div>`;
    case "actions":
      return `<div class="actions">${block.elements.map((e) => `<a class="button" href="${e.url}">${textHtml(e.text)}</a>`).join("")}</div>`;
    case "divider":
      return "<hr>";
    default:
      throw new Error(`no rendering of block type ${block.type}`);
  }
}

const kSlackStyle = `
  #frame { display: inline-block; }
  body { margin: 0; font: 15px/1.46 -apple-system, "Segoe UI", Lato, Helvetica, Arial, sans-serif; color: #1d1c1d; background: #fff; }
  .message { display: flex; gap: 8px; padding: 16px 20px; width: 640px; }
  .avatar { width: 36px; height: 36px; border-radius: 6px; background: #2563eb; color: #fff; font-weight: 700; display: grid; place-items: center; flex: none; }
  .who b { margin-right: 4px; } .app { font-size: 10px; background: #e8e8e8; color: #616061; padding: 1px 3px; border-radius: 2px; font-weight: 700; }
  .time { color: #616061; font-size: 12px; margin-left: 4px; }
  .header { font-size: 18px; font-weight: 900; margin: 4px 0; }
  .section { margin: 4px 0; } .fields { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; }
  .context { font-size: 13px; color: #616061; margin: 4px 0; } .context span + span { margin-left: 8px; }
  .actions { margin: 8px 0 4px; } .button { display: inline-block; border: 1px solid #bbb; border-radius: 4px; padding: 3px 12px; font-weight: 700; font-size: 13px; color: #1d1c1d; text-decoration: none; }
  a { color: #1264a3; } code { font-size: 12px; background: #f6f6f6; border: 1px solid #ddd; border-radius: 3px; padding: 0 3px; color: #e01e5a; }
  .note { font-size: 11px; color: #616061; padding: 0 20px 12px 64px; }`;

function slackPage(message) {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${kSlackStyle}</style></head><body>
  <div id="frame"><div class="message"><div class="avatar">ic</div><div>
    <div class="who"><b>icat</b><span class="app">APP</span><span class="time">9:41 AM</span></div>
    ${message.blocks.map(blockHtml).join("\n")}
  </div></div><div class="note">Our rendering of the Block Kit message (Slack has no offline renderer).</div></div></body></html>`;
}

test("the Slack message, rendered from its Block Kit blocks", { skip: noRecording }, async () => {
  const message = richest("slack");
  const { page, errors } = await blankPage();
  await page.setContent(slackPage(message));
  const shown = await page.$eval("#frame", (frame) => frame.innerText);
  assert.ok(shown.includes(message.blocks[0].text.text), "the header is shown");
  assert.ok(shown.includes("Open in the console"), "the button is shown");
  assert.deepEqual(errors, []);
  await screenshot(await page.$("#frame"), "message-slack");
  await page.browserContext().close();
});

// ------------------------------------------------------------------ Teams, Microsoft's renderer

test("the Teams message, its Adaptive Card rendered by npm adaptivecards", { skip: noRecording }, async () => {
  const message = richest("teams");
  const card = message.attachments[0].content;
  const { page, errors } = await blankPage();
  const css = readFileSync(require.resolve("adaptivecards/dist/adaptivecards.css"), "utf8");
  await page.setContent(`<!doctype html><html><head><meta charset="utf-8"><style>${css}
    body { margin: 0; background: #f5f5f5; font-family: "Segoe UI", Helvetica, Arial, sans-serif; }
    #frame { width: 480px; padding: 16px; } #card { background: #fff; border-radius: 4px; box-shadow: 0 1px 2px rgba(0,0,0,.15); }
    </style></head><body><div id="frame"><div id="card"></div></div></body></html>`);
  await page.addScriptTag({ content: readFileSync(require.resolve("adaptivecards/dist/adaptivecards.min.js"), "utf8") });
  const rendered = await page.evaluate((json) => {
    const adaptive = new window.AdaptiveCards.AdaptiveCard();
    adaptive.parse(json);
    const element = adaptive.render();
    if (!element) return "";
    document.getElementById("card").appendChild(element);
    return element.innerText;
  }, card);
  assert.ok(rendered.includes(card.body[0].text), `the card's headline is rendered: ${rendered}`);
  assert.ok(rendered.includes("Open in the console"), "the action is rendered");
  assert.deepEqual(errors, []);
  await screenshot(await page.$("#frame"), "message-teams");
  await page.browserContext().close();
});

// ------------------------------------------------------------------ the check itself

test("the messages check refuses what Slack or Teams would refuse", () => {
  const slack = {
    text: "CVE-2024-3094 (critical) detected in demo:1.0",
    blocks: [
      { type: "header", text: { type: "plain_text", text: "CVE-2024-3094 (critical) detected in demo:1.0" } },
      { type: "section", fields: [{ type: "mrkdwn", text: "*Image*\ndemo" }] },
      { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open in the console" }, url: "https://demo.example.test/images/1" }] },
    ],
  };
  const teams = {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        content: {
          type: "AdaptiveCard",
          version: "1.4",
          body: [{ type: "TextBlock", text: "Watched CVE-2024-3094 found in demo:1.0", wrap: true }, { type: "FactSet", facts: [{ title: "Image", value: "demo" }] }],
          actions: [{ type: "Action.OpenUrl", title: "Open in the console", url: "https://demo.example.test/images/1" }],
        },
      },
    ],
  };
  const broken = (message, change) => {
    const copy = structuredClone(message);
    change(copy);
    return JSON.stringify(copy);
  };
  assert.deepEqual(checkMessage("slack", JSON.stringify(slack)), []);
  assert.deepEqual(checkMessage("teams", JSON.stringify(teams)), []);
  const card = (m) => m.attachments[0].content;
  for (const [type, body, problem] of [
    ["slack", broken(slack, (m) => delete m.text), /fallback/],
    ["slack", broken(slack, (m) => (m.blocks[0].text.text = "x".repeat(151))), /151 characters, at most 150/],
    ["slack", broken(slack, (m) => (m.blocks[0].text.type = "mrkdwn")), /must be plain_text/],
    ["slack", broken(slack, (m) => (m.blocks = Array(51).fill(m.blocks[1]))), /at most 50/],
    ["slack", broken(slack, (m) => (m.blocks[1].fields = Array(11).fill(m.blocks[1].fields[0]))), /1 to 10/],
    ["slack", broken(slack, (m) => (m.blocks[1].type = "sektion")), /not a block type/],
    ["slack", broken(slack, (m) => delete m.blocks[2].elements[0].url), /url/],
    ["slack", broken(slack, (m) => (m.blocks[1].colour = "red")), /unknown field "colour"/],
    ["teams", broken(teams, (m) => card(m).body.push({ type: "FactSett" })), /Unknown element type "FactSett"/],
    ["teams", broken(teams, (m) => delete card(m).actions[0].url), /"url" must be set/],
    ["teams", broken(teams, (m) => (card(m).body[0].weight = "heavy")), /Invalid value "heavy"/],
    ["teams", broken(teams, (m) => (card(m).version = "1.6")), /must be 1.4/],
    ["teams", broken(teams, (m) => (m.attachments[0].contentType = "text/html")), /contentType/],
  ]) {
    const problems = checkMessage(type, body);
    assert.ok(problems.some((p) => problem.test(p)), `${type} ${body}: ${problems.join("; ") || "no problem found"}`);
  }
});
