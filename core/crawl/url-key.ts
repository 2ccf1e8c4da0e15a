/**
 * URL normalization for crawls: the dedupe key that makes "each URL is scraped once, whatever its
 * spelling" hold (compat.md §7.2 Normalization), and the URL actually fetched for a discovered link.
 * The key ignores the fragment (route hashes such as `#/page` are kept), a trailing slash, a final
 * `index.html`/`index.htm`/`index.php`, letter case of the host and of percent escapes, default
 * ports and, with `deduplicateSimilarURLs` (default), `www.` and http vs https. With
 * `ignoreQueryParameters` the query is dropped from both the key and the fetched URL.
 */

export interface KeyOptions {
  /** Drop the query string (crawl option `ignoreQueryParameters`). */
  ignoreQueryParameters: boolean;
  /** Treat www/non-www and http/https spellings as one URL (crawl option `deduplicateSimilarURLs`). */
  deduplicateSimilarURLs: boolean;
}

export const DEFAULT_KEY_OPTIONS: KeyOptions = { ignoreQueryParameters: false, deduplicateSimilarURLs: true };

const INDEX_FILE = /\/index\.(?:html?|php)$/i;

/** True for a fragment that is a client-side route (`#/path`, `#!/path`), which names another page. */
export function isRouteHash(hash: string): boolean {
  return /^#!?\//.test(hash);
}

/**
 * Parses an absolute http(s) URL, or undefined for anything else (mailto:, javascript:, bad syntax).
 * @param base resolves relative references when given
 */
export function parseHttpUrl(href: string, base?: string | URL): URL | undefined {
  let url: URL;
  try {
    url = base === undefined ? new URL(href) : new URL(href, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (!url.hostname) return undefined;
  return url;
}

/** Lower-case host without a leading `www.`. */
export function bareHost(hostname: string): string {
  const h = hostname.toLowerCase();
  return h.startsWith('www.') ? h.slice(4) : h;
}

/**
 * The URL to fetch for a discovered link: fragment removed unless it is a route hash, query removed
 * with `ignoreQueryParameters`. Spelling is otherwise kept as found.
 */
export function fetchUrlOf(url: URL, opts: KeyOptions = DEFAULT_KEY_OPTIONS): string {
  const u = new URL(url.href);
  if (!isRouteHash(u.hash)) u.hash = '';
  if (opts.ignoreQueryParameters) u.search = '';
  return u.href;
}

/**
 * The dedupe key of a URL (compat.md §7.2): two spellings of one page give the same key.
 *
 * @example urlKey(new URL('https://www.Example.com/a/index.html#top')) === urlKey(new URL('http://example.com/a/'))
 * @returns a string such as `//example.com/a?x=1` (scheme kept only without deduplicateSimilarURLs)
 */
export function urlKey(url: URL, opts: KeyOptions = DEFAULT_KEY_OPTIONS): string {
  const host = opts.deduplicateSimilarURLs ? bareHost(url.hostname) : url.hostname.toLowerCase();
  const defaultPort = url.port === '' || (url.protocol === 'http:' && url.port === '80') || (url.protocol === 'https:' && url.port === '443');
  let path = url.pathname.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
  path = path.replace(INDEX_FILE, '/').replace(/\/+$/, '');
  const query = opts.ignoreQueryParameters ? '' : url.search;
  const hash = isRouteHash(url.hash) ? url.hash : '';
  const scheme = opts.deduplicateSimilarURLs ? '' : url.protocol;
  return `${scheme}//${host}${defaultPort ? '' : `:${url.port}`}${path}${query}${hash}`;
}
