/**
 * The deterministic risk score of a target (0–100) from URL and response features (issue 17):
 * - an IP-literal host: 35
 * - punycode labels (`xn--`): 20; letters of more than one script in one label: 35
 * - many subdomain levels: 8 per level beyond three, at most 24
 * - a well-known brand name in a subdomain of another site (`paypal.login.example.net`): 30
 * - a download content type (executables, installers, archives, disk images): 30
 * - a host this instance has not seen before: 10
 * The features present are returned with the score, so a block can say why.
 */
import { getDomain } from 'tldts';

export interface RiskFacts {
  /** Response content type, when known (after the fetch). */
  contentType?: string;
}

export interface RiskScore {
  score: number;
  features: string[];
}

const BRANDS = ['paypal', 'apple', 'icloud', 'microsoft', 'office365', 'outlook', 'google', 'gmail', 'amazon', 'facebook', 'instagram', 'netflix', 'linkedin', 'dropbox', 'docusign', 'chase', 'wellsfargo', 'bankofamerica', 'hsbc', 'barclays', 'coinbase', 'binance', 'metamask', 'steam', 'whatsapp', 'dhl', 'fedex', 'ups', 'usps'];
const DOWNLOAD_TYPES = /^(?:application\/(?:x-msdownload|x-msdos-program|x-ms-installer|x-msi|vnd\.microsoft\.portable-executable|x-executable|x-elf|x-mach-binary|x-sh|x-bat|java-archive|vnd\.android\.package-archive|x-apple-diskimage|x-iso9660-image|x-rar-compressed|vnd\.rar|x-7z-compressed|octet-stream))$/i;

/** Hosts seen by this process (bounded), for the newly-seen feature. */
const seen = new Set<string>();
const SEEN_MAX = 100_000;

/** Records a host as seen (after it was fetched or judged). */
export function markSeen(host: string): void {
  if (seen.size >= SEEN_MAX) seen.delete(seen.values().next().value!);
  seen.add(host);
}

function scripts(label: string): number {
  const found = new Set<string>();
  for (const ch of label) {
    if (/\p{Script=Latin}/u.test(ch)) found.add('latin');
    else if (/\p{Script=Cyrillic}/u.test(ch)) found.add('cyrillic');
    else if (/\p{Script=Greek}/u.test(ch)) found.add('greek');
    else if (/\p{L}/u.test(ch)) found.add('other');
  }
  return found.size;
}

/**
 * Scores a URL (and its response, when known).
 * @param unicodeHost the host in Unicode (for the mixed-scripts feature); defaults to the URL's host
 */
export function riskScore(url: URL, facts: RiskFacts = {}, unicodeHost?: string): RiskScore {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const features: string[] = [];
  let score = 0;
  const add = (points: number, feature: string) => {
    score += points;
    features.push(feature);
  };
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || host.includes(':')) add(35, 'IP-literal host');
  else {
    const labels = host.split('.');
    if (labels.some((l) => l.startsWith('xn--'))) add(20, 'punycode host');
    const display = unicodeHost ?? host;
    if (display.split('.').some((l) => scripts(l) > 1)) add(35, 'mixed scripts in the host');
    if (labels.length > 4) add(Math.min(24, (labels.length - 4) * 8), `${labels.length - 2} subdomain levels`);
    const domain = getDomain(host) ?? host;
    const sub = host.slice(0, Math.max(0, host.length - domain.length - 1));
    const brand = BRANDS.find((b) => sub.split(/[.-]/).includes(b) && !domain.startsWith(`${b}.`));
    if (brand) add(30, `brand name "${brand}" in a subdomain of ${domain}`);
    if (!seen.has(host)) add(10, 'host not seen before by this instance');
  }
  const type = facts.contentType?.split(';')[0]?.trim();
  if (type && DOWNLOAD_TYPES.test(type)) add(30, `download content type ${type}`);
  return { score: Math.min(100, score), features };
}
