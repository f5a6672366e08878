// The registrable domain of a page's address: the one thing about a tab that
// leaves the extension.
//
// A registrable domain is the public suffix ("com", "co.uk") and one label
// before it. The full Public Suffix List has some 10,000 entries and changes
// every week; shipping it would mean a build step or a stale copy. This table
// holds the multi-label suffixes most sites people limit live under. Under a
// suffix not listed here (say "com.ua"), "shop.example.com.ua" reports
// "com.ua" instead of "example.com.ua": a rule naming "example.com.ua" still
// does not match another site, it only fails to match this one. The README
// says so.
"use strict";

const SHIELDBRIDGE_MULTI_LABEL_SUFFIXES = new Set([
  // Country second levels.
  "co.uk", "org.uk", "me.uk", "ac.uk", "gov.uk", "ltd.uk", "plc.uk", "net.uk",
  "com.au", "net.au", "org.au", "edu.au", "gov.au", "id.au",
  "co.nz", "org.nz", "net.nz",
  "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp",
  "co.kr", "or.kr",
  "co.in", "net.in", "org.in", "firm.in", "gen.in", "ind.in",
  "co.za", "org.za",
  "co.il", "org.il",
  "com.br", "net.br", "org.br",
  "com.ar", "com.mx", "com.co", "com.pe", "com.ve",
  "com.cn", "net.cn", "org.cn", "com.hk", "com.tw", "com.sg", "com.my",
  "com.tr", "com.pl", "com.ua", "com.eg", "com.sa", "com.pk", "com.ng",
  "co.id", "co.th", "com.vn", "com.ph",
  // Hosting platforms whose every subdomain is somebody else's site.
  "github.io", "gitlab.io", "pages.dev", "netlify.app", "vercel.app",
  "web.app", "firebaseapp.com", "herokuapp.com", "appspot.com",
  "blogspot.com", "wordpress.com", "tumblr.com", "neocities.org",
]);

/** A host name as the native host's Site takes it: labels of 1 to 63 letters, digits and inner hyphens. */
const SHIELDBRIDGE_HOST_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * The registrable domain of `address`, or null when it is no http(s) site.
 *
 * Lowercase, without port or trailing dot; an IP address or a single label
 * such as "localhost" is returned as it is, an IPv6 literal or any other host
 * that is no host name gives null. Internationalised names stay in the
 * punycode form the browser gives.
 */
function shieldbridgeRegistrableDomain(address) {
  let url;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  let host = url.hostname.toLowerCase();
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host === "") return null;
  // IPv4 literals are all digits and dots, and a host name as they are.
  if (/^[0-9.]+$/.test(host)) return SHIELDBRIDGE_HOST_NAME.test(host) ? host : null;
  const labels = host.split(".");
  if (labels.some((label) => label === "")) return null;
  let domain = host;
  if (labels.length > 2) {
    const lastTwo = labels.slice(-2).join(".");
    const keep = SHIELDBRIDGE_MULTI_LABEL_SUFFIXES.has(lastTwo) ? 3 : 2;
    domain = labels.slice(-keep).join(".");
  }
  // What the host takes as a site (letters, digits, inner hyphens; 253 bytes
  // at most): anything else, such as a bracketed IPv6 literal or a label with
  // "_", no rule can name, and the host would refuse it while the site reported
  // before went on counting.
  return domain.length <= 253 && SHIELDBRIDGE_HOST_NAME.test(domain) ? domain : null;
}
