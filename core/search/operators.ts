/**
 * Search query operators. The query string is the one language every provider speaks: the core adds
 * `site:` / `-site:` / `filetype:` operators for `includeDomains`, `excludeDomains` and `categories`
 * (interface.md "Search request body"), providers that understand them pass the string on, and those
 * that do not (the local index, SearXNG offline engines) read them back with `parseQuery` and filter
 * themselves. `matchesFilters` is the post-filter the core applies to every provider's hits.
 */

/** One condition of a group: a domain (optionally with a path prefix) or a file type. */
export type Condition = { kind: 'site'; host: string; path: string } | { kind: 'filetype'; ext: string };

export interface ParsedQuery {
  /** The query without site/filetype/image operators (words, quoted phrases, `-word`, `OR`). */
  text: string;
  /** Every group must match; a group matches when any of its conditions does. */
  groups: Condition[][];
  /** `-site:` domains (and paths): a hit on any of them is dropped. */
  exclude: { host: string; path: string }[];
  /** `imagesize:WxH` (exact) or `larger:WxH` (at least). */
  imageSize?: { width: number; height: number; larger: boolean };
}

const OPERATOR = /^(-?)(site|filetype|ext|imagesize|larger):(.+)$/i;

/** Splits a query into tokens: quoted phrases, parentheses, and whitespace-separated words. */
function tokenize(query: string): string[] {
  const tokens: string[] = [];
  const re = /"[^"]*"?|[()]|[^\s()"]+(?:"[^"]*"?)?/g;
  for (const m of query.matchAll(re)) tokens.push(m[0]);
  return tokens;
}

/** `example.com/docs` → `{ host: 'example.com', path: '/docs' }`; undefined when not a domain. */
export function parseDomain(value: string): { host: string; path: string } | undefined {
  let v = value.trim().toLowerCase().replace(/^["']|["']$/g, '');
  v = v.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^\*\./, '');
  const slash = v.indexOf('/');
  const host = (slash === -1 ? v : v.slice(0, slash)).replace(/:\d+$/, '').replace(/\.$/, '');
  const path = slash === -1 ? '' : v.slice(slash).replace(/[?#].*$/, '').replace(/\/+$/, '');
  if (!/^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?$/.test(host)) return undefined;
  return { host, path };
}

function condition(name: string, value: string): Condition | undefined {
  if (name === 'site') {
    const d = parseDomain(value);
    return d ? { kind: 'site', ...d } : undefined;
  }
  const ext = value.toLowerCase().replace(/^\./, '');
  return /^[a-z0-9]{1,10}$/.test(ext) ? { kind: 'filetype', ext } : undefined;
}

/**
 * Reads the operators out of a query.
 * Rules: `site:a OR site:b` (with or without parentheses) is one group; each other `site:` or
 * `filetype:` is a group of its own; a parenthesized group of only operators is one group.
 * Anything that is not an operator stays in `text` unchanged.
 */
export function parseQuery(query: string): ParsedQuery {
  const tokens = tokenize(query);
  const out: ParsedQuery = { text: '', groups: [], exclude: [] };
  const words: string[] = [];
  let i = 0;
  /** Reads `cond (OR cond)*` starting at i; returns the group or undefined (nothing consumed). */
  const readChain = (start: number, insideParens: boolean): { group: Condition[]; next: number } | undefined => {
    const group: Condition[] = [];
    let j = start;
    for (;;) {
      const m = OPERATOR.exec(tokens[j] ?? '');
      if (!m || m[1] === '-' || !['site', 'filetype', 'ext'].includes(m[2].toLowerCase())) break;
      const c = condition(m[2].toLowerCase() === 'site' ? 'site' : 'filetype', m[3]);
      if (!c) break;
      group.push(c);
      j++;
      if ((tokens[j] === 'OR' || tokens[j] === '|') && OPERATOR.test(tokens[j + 1] ?? '')) j++;
      else break;
    }
    if (group.length === 0) return undefined;
    if (insideParens && tokens[j] !== ')') return undefined;
    return { group, next: insideParens ? j + 1 : j };
  };
  while (i < tokens.length) {
    const t = tokens[i];
    if (t === '(') {
      const chain = readChain(i + 1, true);
      if (chain) {
        out.groups.push(chain.group);
        i = chain.next;
        continue;
      }
    }
    const m = OPERATOR.exec(t);
    if (m) {
      const name = m[2].toLowerCase();
      if (name === 'imagesize' || name === 'larger') {
        const size = /^(\d{1,5})x(\d{1,5})$/i.exec(m[3]);
        if (size && m[1] !== '-') {
          out.imageSize = { width: Number(size[1]), height: Number(size[2]), larger: name === 'larger' };
          i++;
          continue;
        }
      } else if (m[1] === '-' && name === 'site') {
        const d = parseDomain(m[3]);
        if (d) {
          out.exclude.push(d);
          i++;
          continue;
        }
      } else if (m[1] !== '-') {
        const chain = readChain(i, false);
        if (chain) {
          out.groups.push(chain.group);
          i = chain.next;
          continue;
        }
      }
    }
    words.push(t);
    i++;
  }
  // Drop connectives left dangling by removed operators ("a OR" / "( )").
  const cleaned = words.filter((w, k) => !((w === 'OR' || w === '|') && (k === 0 || k === words.length - 1)));
  out.text = cleaned.join(' ').replace(/\(\s*\)/g, '').replace(/\s+/g, ' ').trim();
  return out;
}

/** True when the query text has at least one search word (letters or digits outside operators). */
export function hasSearchTerms(parsed: ParsedQuery): boolean {
  return parsed.text
    .split(/\s+/)
    .filter((w) => w !== 'OR' && w !== '|' && w !== 'AND')
    .some((w) => /[\p{L}\p{N}]/u.test(w.replace(/^-/, '')) && !w.startsWith('-'));
}

/** `site:a` or `(site:a OR site:b)` for a list of domains. */
export function siteGroup(domains: string[]): string {
  const parts = domains.map((d) => `site:${d}`);
  return parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
}

function hostMatches(host: string, want: { host: string; path: string }, path: string): boolean {
  const h = host.toLowerCase().replace(/^www\./, '');
  const w = want.host.replace(/^www\./, '');
  if (h !== w && !h.endsWith(`.${w}`)) return false;
  return want.path === '' || path === want.path || path.startsWith(`${want.path}/`);
}

/**
 * Whether a hit's URL passes the site filters of a parsed query. A group holding a `filetype:`
 * condition passes when the URL looks like that type, and is trusted to the provider when the URL
 * cannot tell (PDF URLs often have no extension); groups of sites must match a site.
 */
export function matchesFilters(url: string, parsed: ParsedQuery): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const path = safeDecode(u.pathname).toLowerCase().replace(/\/+$/, '');
  if (parsed.exclude.some((e) => hostMatches(u.hostname, e, path))) return false;
  return parsed.groups.every((group) =>
    group.some((c) => (c.kind === 'site' ? hostMatches(u.hostname, c, path) : true)),
  );
}

/** `decodeURIComponent` that keeps the input when it holds a malformed escape. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Whether a URL matches one of the domains (subdomains included). */
export function urlOnDomains(url: string, domains: readonly string[]): boolean {
  try {
    const u = new URL(url);
    const path = u.pathname.toLowerCase();
    return domains.some((d) => {
      const p = parseDomain(d);
      return p ? hostMatches(u.hostname, p, path) : false;
    });
  } catch {
    return false;
  }
}
