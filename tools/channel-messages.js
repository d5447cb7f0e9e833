#!/usr/bin/env node
// Holds the messages the dispatcher sends to Slack and Microsoft Teams to those services' own rules
// (docs/notifications.md): the integration tests' receivers record each channel message they get
// in the replies log ({"channel": "slack"|"teams", "body"}, tests/integration/receiver.cpp).
//
//   channel-messages.js check LOG DIR   validates every recorded message, writes each body to
//                                       DIR/<type>-<n>.json (the docs' screenshots render them,
//                                       tests/browser/messages.test.mjs), fails listing each problem
//   channel-messages.js files FILE...   validates message bodies saved as files (<type>-*.json)
//
// Teams: the Adaptive Card is parsed by npm adaptivecards (Microsoft's own library) as a version 1.4
// card, and every parse or validation event (an unknown element or action, a value out of its
// enum, a required property missing) is a problem. Slack: Block Kit's shape rules, written here from
// Slack's reference (api.slack.com/reference/block-kit): block and element types, text objects,
// their length limits, at most 50 blocks, 10 fields, and a plain `text` fallback.
// Run with NODE_PATH=build/node/node_modules.
'use strict';

const fs = require('fs');
const path = require('path');

// ------------------------------------------------------------------ Slack

const kMaxBlocks = 50;
const kTextTypes = ['plain_text', 'mrkdwn'];
// Each block type the messages may use, with the keys it may have and its own rules.
const kBlocks = {
  header: { keys: ['text'], check: (b, at, p) => textObject(b.text, `${at}.text`, p, { types: ['plain_text'], max: 150 }) },
  section: { keys: ['text', 'fields'], check: checkSection },
  context: { keys: ['elements'], check: checkContext },
  actions: { keys: ['elements'], check: checkActions },
  divider: { keys: [], check: () => {} },
};

const chars = (text) => [...text].length;  // Slack counts characters, not bytes

function onlyKeys(object, allowed, at, problems) {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) problems.push(`${at}: unknown field "${key}"`);
  }
}

// A text object: {"type": plain_text|mrkdwn, "text": 1..max characters, "emoji"?, "verbatim"?}.
function textObject(t, at, problems, { types = kTextTypes, max = 3000 } = {}) {
  if (!t || typeof t !== 'object' || Array.isArray(t)) return problems.push(`${at}: must be a text object`);
  if (!types.includes(t.type)) problems.push(`${at}.type: must be ${types.join(' or ')}, is ${JSON.stringify(t.type)}`);
  if (typeof t.text !== 'string' || t.text.length === 0) problems.push(`${at}.text: must be a non-empty string`);
  else if (chars(t.text) > max) problems.push(`${at}.text: ${chars(t.text)} characters, at most ${max}`);
  onlyKeys(t, t.type === 'plain_text' ? ['type', 'text', 'emoji'] : ['type', 'text', 'verbatim'], at, problems);
}

function checkSection(b, at, problems) {
  if (b.text === undefined && b.fields === undefined) problems.push(`${at}: a section needs text or fields`);
  if (b.text !== undefined) textObject(b.text, `${at}.text`, problems);
  if (b.fields !== undefined) {
    if (!Array.isArray(b.fields) || b.fields.length === 0 || b.fields.length > 10) {
      return problems.push(`${at}.fields: must hold 1 to 10 text objects`);
    }
    b.fields.forEach((f, i) => textObject(f, `${at}.fields[${i}]`, problems, { max: 2000 }));
  }
}

function checkContext(b, at, problems) {
  if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > 10) {
    return problems.push(`${at}.elements: must hold 1 to 10 elements`);
  }
  b.elements.forEach((e, i) => textObject(e, `${at}.elements[${i}]`, problems));
}

// Buttons that open a page: text plain_text up to 75 characters, an http(s) url up to 3000.
function checkActions(b, at, problems) {
  if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > 25) {
    return problems.push(`${at}.elements: must hold 1 to 25 elements`);
  }
  b.elements.forEach((e, i) => {
    const where = `${at}.elements[${i}]`;
    if (e?.type !== 'button') return problems.push(`${where}.type: must be button, is ${JSON.stringify(e?.type)}`);
    onlyKeys(e, ['type', 'text', 'url', 'action_id', 'value', 'style'], where, problems);
    textObject(e.text, `${where}.text`, problems, { types: ['plain_text'], max: 75 });
    if (typeof e.url !== 'string' || !/^https?:\/\/\S+$/.test(e.url) || chars(e.url) > 3000) {
      problems.push(`${where}.url: must be an http(s) URL of at most 3000 characters`);
    }
    if (e.action_id !== undefined && (typeof e.action_id !== 'string' || chars(e.action_id) > 255)) {
      problems.push(`${where}.action_id: at most 255 characters`);
    }
    if (e.style !== undefined && !['primary', 'danger'].includes(e.style)) problems.push(`${where}.style: primary or danger`);
  });
}

function checkSlack(message) {
  const problems = [];
  if (typeof message.text !== 'string' || message.text.trim() === '') problems.push('text: the fallback must be a non-empty string');
  if (!Array.isArray(message.blocks) || message.blocks.length === 0) return [...problems, 'blocks: must be a non-empty array'];
  if (message.blocks.length > kMaxBlocks) problems.push(`blocks: ${message.blocks.length}, at most ${kMaxBlocks}`);
  const blockIds = new Set();
  message.blocks.forEach((b, i) => {
    const at = `blocks[${i}]`;
    const rule = kBlocks[b?.type];
    if (!rule) return problems.push(`${at}.type: ${JSON.stringify(b?.type)} is not a block type the messages use`);
    onlyKeys(b, ['type', 'block_id', ...rule.keys], at, problems);
    if (b.block_id !== undefined) {
      if (typeof b.block_id !== 'string' || chars(b.block_id) > 255 || blockIds.has(b.block_id)) {
        problems.push(`${at}.block_id: a unique string of at most 255 characters`);
      }
      blockIds.add(b.block_id);
    }
    rule.check(b, at, problems);
  });
  onlyKeys(message, ['text', 'blocks', 'unfurl_links', 'unfurl_media', 'mrkdwn'], 'message', problems);
  return problems;
}

// ------------------------------------------------------------------ Teams

const kCardType = 'application/vnd.microsoft.card.adaptive';
const kCardVersion = '1.4';  // what Teams renders in incoming-webhook messages

let adaptiveCards = null;
function cards() {
  // The library's UMD bundle: its lib/ build is ES modules without file extensions, which node
  // cannot load. Parsing needs no DOM.
  adaptiveCards ||= require('adaptivecards/dist/adaptivecards.js');
  return adaptiveCards;
}

function checkCard(card) {
  const AC = cards();
  const context = new AC.SerializationContext(AC.Version.parse(kCardVersion, new AC.SerializationContext()));
  const parsed = new AC.AdaptiveCard();
  parsed.parse(card, context);
  const problems = [];
  for (let i = 0; i < context.eventCount; i++) problems.push(`card: ${context.getEventAt(i).message}`);
  for (const event of parsed.validateProperties().validationEvents) problems.push(`card: ${event.message}`);
  if (card.version !== kCardVersion) problems.push(`card.version: must be ${kCardVersion}, is ${JSON.stringify(card.version)}`);
  if (!Array.isArray(card.body) || card.body.length === 0) problems.push('card.body: must hold the message');
  // The library lets a TextBlock without text pass; the schema requires it.
  (card.body || []).forEach((item, i) => {
    if (item?.type === 'TextBlock' && (typeof item.text !== 'string' || item.text === '')) problems.push(`card.body[${i}].text: required`);
  });
  return problems;
}

function checkTeams(message) {
  if (message.type !== 'message') return ['type: must be "message"'];
  if (!Array.isArray(message.attachments) || message.attachments.length !== 1) return ['attachments: must hold one Adaptive Card'];
  const [attachment] = message.attachments;
  if (attachment.contentType !== kCardType) return [`attachments[0].contentType: must be ${kCardType}`];
  if (!attachment.content || typeof attachment.content !== 'object') return ['attachments[0].content: must be the card'];
  return checkCard(attachment.content);
}

// ------------------------------------------------------------------ the messages

const kCheckers = { slack: checkSlack, teams: checkTeams };

// The problems of one message body (text) for a service; none when it is valid.
function checkMessage(type, body) {
  const check = kCheckers[type];
  if (!check) return [`no rules for channel type ${JSON.stringify(type)}`];
  let message;
  try {
    message = JSON.parse(body);
  } catch (error) {
    return [`not JSON: ${error.message}`];
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) return ['not a JSON object'];
  return check(message);
}

function report(results) {
  for (const { where, problems } of results) {
    for (const problem of problems) console.error(`channel-messages: ${where}: ${problem}`);
  }
  const invalid = results.filter((result) => result.problems.length > 0).length;
  const counts = Object.keys(kCheckers).map((type) => `${results.filter((result) => result.type === type).length} ${type}`).join(', ');
  console.log(`channel-messages: ${results.length - invalid} valid, ${invalid} invalid (${counts})`);
  return invalid === 0;
}

function checkLog(log, dir) {
  const entries = fs.readFileSync(log, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const results = entries.filter((entry) => entry.channel).map((entry, i) => {
    const where = `${entry.channel}-${i + 1}`;
    fs.writeFileSync(path.join(dir, `${where}.json`), entry.body);
    return { where, type: entry.channel, problems: checkMessage(entry.channel, entry.body) };
  });
  return report(results);
}

function checkFiles(files) {
  return report(files.map((file) => {
    const type = path.basename(file).split('-')[0];
    return { where: path.basename(file, '.json'), type, problems: checkMessage(type, fs.readFileSync(file, 'utf8')) };
  }));
}

module.exports = { checkMessage };

if (require.main === module) {
  const [command, ...args] = process.argv.slice(2);
  let ok;
  if (command === 'check' && args.length === 2) ok = checkLog(args[0], args[1]);
  else if (command === 'files' && args.length > 0) ok = checkFiles(args);
  else {
    console.error('usage: channel-messages.js check LOG DIR | files FILE...');
    process.exit(2);
  }
  process.exit(ok ? 0 : 1);
}
