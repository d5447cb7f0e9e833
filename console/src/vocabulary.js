// The service's words the console offers, with the label a page shows for each. The words are the
// portal API's enums: tests/browser/vocabulary.test.mjs compares each list with the built
// /api/openapi.json, whose enums tests/unit/vocabulary_test.cpp compares with the service's one list
// of each (common/include/icat/vocabulary.hpp). A word added there fails those tests until it is here.

// Most severe first (Severity).
export const kSeverities = ["critical", "high", "medium", "low", "unknown"];

// A finding's fix state (FixState).
export const kFixStates = ["fixed", "not-fixed", "wont-fix", "unknown", "not-affected"];

// The scopes POST /api/api-keys accepts (ApiKeyRequest), each with what it grants (SPEC.md 2).
export const kScopes = [
  ["read:catalog", "read:catalog: list images and read their details"],
  ["read:sbom", "read:sbom: download SBOMs (SPDX, CycloneDX)"],
  ["read:vulns", "read:vulns: read vulnerabilities and look up CVEs"],
  ["admission", "admission: the Kubernetes admission webhook"],
  ["pull", "pull: pull the licensed images from the registry (docker, skopeo, a cluster's imagePullSecret)"],
];

// A portal user's role (UserRequest.role), least powerful first.
export const kRoles = [
  ["viewer", "Viewer: reads the catalogue, vulnerabilities, SBOMs"],
  ["user", "User: the same as a viewer today"],
  ["admin", "Admin: also keys, webhooks, policy, requests, audit, users"],
];

// The event kinds a subscription can choose (WebhookRequest.events), each with when it is sent
// (docs/webhooks.md).
export const kEvents = [
  ["scan.completed", "scan.completed: a licensed image version was scanned"],
  ["vulnerability.detected", "vulnerability.detected: a scan found vulnerabilities the previous one did not have"],
  ["vulnerability.fixed", "vulnerability.fixed: vulnerabilities of the previous scan are gone"],
  ["cve_watch.matched", "cve_watch.matched: a watched CVE newly appears on a licensed image"],
  ["vex.updated", "vex.updated: the image vendor's VEX statements about a licensed image were ingested"],
  ["version.published", "version.published: a new version of a licensed image was pushed to the registry"],
  ["vulnerability.exploited", "vulnerability.exploited: CISA added a CVE your latest versions carry to its Known Exploited Vulnerabilities catalogue"],
  ["ping", "ping: the test event this console sends on request"],
];

// An admission policy's severityThreshold; "" stands for null, which turns the severity rule off.
export const kThresholds = [
  ["critical", "Critical"],
  ["high", "High or above"],
  ["medium", "Medium or above"],
  ["low", "Low or above"],
  ["", "Off: severity never denies"],
];

// A notification channel's type (NotificationChannelRequest.type), chosen once, at creation.
export const kChannelTypes = [
  ["slack", "Slack: an incoming webhook's URL"],
  ["teams", "Microsoft Teams: an incoming webhook's URL"],
  ["email", "E-mail: addresses, each confirmed by its owner before anything else is sent to it"],
];

// The events a channel may choose: a subscription's, but ping, which goes to one webhook.
export const kChannelEvents = kEvents.filter(([event]) => event !== "ping");

// An e-mail channel's digest; "" stands for null: each event mailed as it happens.
export const kDigests = [
  ["", "None: each chosen event is mailed as it happens"],
  ["daily", "Daily: one mail a day with the new findings, nothing per event"],
  ["weekly", "Weekly: one mail a week with the new findings, nothing per event"],
];
