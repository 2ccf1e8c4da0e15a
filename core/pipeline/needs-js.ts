/**
 * Detects pages that need JavaScript to show their content: an HTML shell whose body holds almost no
 * text but does load scripts (single-page apps). The scrape pipeline retries such a fetch result in
 * the browser engine when one is available, and remembers hosts that keep serving shells so their
 * next pages go to the browser without the plain fetch first (`knownShellHost`).
 */

const SCRIPT_RE = /<script\b[^>]*>/gi;

/**
 * True when `html` looks like a client-rendered shell.
 * @param html raw HTML as fetched
 */
export function needsJavaScript(html: string): boolean {
  const scripts = html.match(SCRIPT_RE)?.length ?? 0;
  if (scripts === 0) return false;
  const bodyStart = html.search(/<body\b/i);
  const body = bodyStart >= 0 ? html.slice(bodyStart) : html;
  const text = body
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length >= 200) return false;
  // A noscript "enable JavaScript" notice or an empty app root is the usual shape.
  return /<(div|main)\b[^>]*\bid=["']?(root|app|__next|__nuxt|main)["'\s>]/i.test(body) || text.length < 40;
}

/** Shells in a row from one host after which its pages skip the plain fetch. */
const SHELLS_TO_REMEMBER = 2;
/** How long a host stays remembered after its last shell, ms. */
const REMEMBER_MS = 10 * 60_000;
/** Most hosts remembered (the oldest is forgotten first). */
const MAX_HOSTS = 1_000;

/** Per host: shells in a row from the plain fetch, and when the last one came (epoch ms). */
const shellHosts = new Map<string, { shells: number; at: number }>();

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Records what the plain fetch (an engine without JavaScript) got from `url`'s host: a client-rendered
 * shell (`needsJavaScript`) or a page with its content. A host that served two shells in a row is
 * remembered for 10 minutes from its latest shell (at most 1,000 hosts per process); one full page
 * forgets it.
 */
export function noteFetchedPage(url: string, shell: boolean): void {
  const host = hostOf(url);
  if (!host) return;
  if (!shell) {
    shellHosts.delete(host);
    return;
  }
  const now = Date.now();
  const known = shellHosts.get(host);
  const shells = known && now - known.at < REMEMBER_MS ? known.shells + 1 : 1;
  shellHosts.delete(host); // re-inserted last: the map's order is the forgetting order
  shellHosts.set(host, { shells, at: now });
  if (shellHosts.size > MAX_HOSTS) shellHosts.delete(shellHosts.keys().next().value!);
}

/**
 * True when `url`'s host served client-rendered shells to the plain fetch lately (`noteFetchedPage`),
 * so a scrape of it can go to a browser at once instead of fetching the shell first. The memory
 * lapses 10 minutes after the host's latest shell, and then the plain fetch looks again.
 */
export function knownShellHost(url: string): boolean {
  const host = hostOf(url);
  const known = host ? shellHosts.get(host) : undefined;
  if (!known) return false;
  if (Date.now() - known.at >= REMEMBER_MS) {
    shellHosts.delete(host!);
    return false;
  }
  return known.shells >= SHELLS_TO_REMEMBER;
}
