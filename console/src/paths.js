// The console's rules about addresses, kept free of the page code so node's test runner checks
// them directly (tests/browser/paths.test.mjs).

// "/images/:id" against "/images/abc" gives { id: "abc" }; null when it does not match.
export function matchPath(pattern, pathname) {
  if (pattern === "/" || pathname === "/") return pattern === pathname ? {} : null;
  const want = pattern.split("/");
  const got = pathname.replace(/\/+$/, "").split("/");
  if (want.length !== got.length) return null;
  const params = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) {
      if (!got[i]) return null;
      params[want[i].slice(1)] = decodeURIComponent(got[i]);
    } else if (want[i] !== got[i]) {
      return null;
    }
  }
  return params;
}

// The tenant a host name names: acme.icat.example.com and acme.localhost name "acme"; an IP
// address, localhost or a two-label name (example.com) names none.
export function tenantFromHost(hostname) {
  if (/^[\d.]+$/.test(hostname) || hostname.includes(":")) return "";
  const labels = hostname.split(".");
  const isTenantHost = labels.length >= 3 || (labels.length === 2 && labels[1] === "localhost");
  return isTenantHost && /^[a-z0-9-]+$/.test(labels[0]) ? labels[0] : "";
}

// Where sign-in goes next: only a path of this console, so a crafted ?next= cannot send the person
// to another site (//evil.example, /\evil.example, https://...).
export function safeNext(next) {
  const isOwnPath = typeof next === "string" && /^\/(?![/\\])/.test(next) && !/[\x00-\x1f]/.test(next);
  return isOwnPath ? next : "/images";
}

// An image's page, at one version when given (/images/{id}?version={versionId}).
export function imagePath(imageId, versionId) {
  const path = `/images/${encodeURIComponent(imageId)}`;
  return versionId ? `${path}?version=${encodeURIComponent(versionId)}` : path;
}

// The comparison of two versions of an image (/images/{id}/compare?from={versionId}&to={versionId}).
export function comparePath(imageId, fromId, toId) {
  const query = new URLSearchParams({ from: fromId, to: toId });
  return `/images/${encodeURIComponent(imageId)}/compare?${query}`;
}
