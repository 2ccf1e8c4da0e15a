/**
 * Resolve, check, pin (issue 15 item 5): the one way Trawl's server side connects to a URL a user gave
 * (fetch engine hops, robots and sitemaps through it, search result scrapes, webhook receivers). The
 * host is resolved once with the guard's resolver, every address is judged by the policy, and the
 * connection goes to one of exactly those addresses: the URL's host is replaced by the address while
 * the `Host` header and the TLS server name (SNI and certificate check, Bun's `tls.servername`) keep
 * the name. A second resolution (Bun's own DNS cache, a rebinding server answering differently the
 * second time) never decides where the bytes go.
 *
 * Through a proxy (`init.proxy`) the proxy resolves the name and opens the connection, so the name is
 * sent as is: the guard still refuses a name that resolves to a private address here, but what the
 * proxy reaches is decided on the proxy's network, which is the operator's boundary then.
 * With the guard off (`allowAll`) nothing is resolved and fetch connects as usual.
 */
import { isIP } from 'node:net';
import { checkTarget } from './address.ts';
import type { Lookup } from './host-guard.ts';
import type { TargetPolicy } from './target-policy.ts';

/** Bun's fetch options as the engines use them. */
export type PinnedInit = RequestInit & {
  proxy?: string;
  tls?: { rejectUnauthorized?: boolean; servername?: string; ca?: string };
  decompress?: boolean;
};

/** Connection failures after which the next checked address is tried (nothing was sent yet). */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'ConnectionRefused']);

/** IPv4 addresses first (IPv6 is often unroutable in containers), each family in resolver order. */
function connectOrder(addresses: string[]): string[] {
  return [...addresses.filter((a) => isIP(a) === 4), ...addresses.filter((a) => isIP(a) !== 4)];
}

/** The URL to connect to: `url` with its host replaced by `address` (bracketed for IPv6). */
export function pinnedUrl(url: URL, address: string): URL {
  const out = new URL(url.href);
  out.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return out;
}

/** Puts the name back where Bun's message names the address-based URL (errors must not map names to addresses). */
function renamed(error: unknown, connectHref: string, href: string): unknown {
  if (error instanceof Error && typeof error.message === 'string' && error.message.includes(connectHref)) {
    try {
      error.message = error.message.split(connectHref).join(href);
    } catch {
      // a read-only message stays as it was
    }
  }
  return error;
}

/**
 * Fetches `url` once (no redirect following: pass `redirect: 'manual'` and call again per hop), connected
 * to an address the guard checked.
 *
 * @param init Bun fetch options; `headers.host` and `tls.servername` are set from the URL's host
 * @param lookup resolver override (default: the policy's DNS servers, else the system resolver)
 * @returns the response (its `url` is the address-based one; use the `url` you passed)
 * @throws TrawlError BAD_REQUEST, SCRAPE_DNS_RESOLUTION_ERROR, UNSAFE_TARGET from the check;
 *         fetch's own errors (timeouts, TLS, connection) otherwise
 */
export async function pinnedFetch(url: string | URL, init: PinnedInit, policy: TargetPolicy, lookup?: Lookup): Promise<Response> {
  const { url: target, addresses } = await checkTarget(url, policy, lookup);
  const bare = target.hostname.replace(/^\[|\]$/g, '');
  if (policy.allowAll || init.proxy || isIP(bare) || addresses.length === 0) return fetch(target.href, init);
  const headers = new Headers(init.headers);
  if (!headers.has('host')) headers.set('host', target.host);
  const tls = target.protocol === 'https:' ? { ...init.tls, servername: bare.replace(/\.$/, '') } : init.tls;
  const order = connectOrder(addresses);
  for (let i = 0; ; i++) {
    const connect = pinnedUrl(target, order[i]!);
    try {
      return await fetch(connect.href, { ...init, headers, tls } as RequestInit);
    } catch (e) {
      const code = String((e as { code?: string }).code ?? '');
      if (i + 1 < order.length && CONNECT_FAILURES.has(code) && !init.signal?.aborted) continue;
      throw renamed(e, connect.origin, target.origin);
    }
  }
}
