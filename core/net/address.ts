/**
 * SSRF guard (issue "Foundation" §7): decides whether a target may be fetched. A URL is refused when
 * its scheme is not http(s) or when any address its host resolves to is private, loopback, link-local,
 * multicast or otherwise not publicly routable — unless configuration allows private targets
 * (`TRAWL_ALLOW_PRIVATE_TARGETS=true`, used by tests) or lists the address as an exception
 * (core/net/target-policy.ts). Engines call `assertFetchable` before the first
 * request and again on every redirect hop.
 */
import { createHostGuard, isPrivateAddress, type Lookup } from './host-guard.ts';
import type { TargetPolicy } from './target-policy.ts';
import { TrawlError } from '../errors.ts';

export { isPrivateAddress };

/**
 * Checks that `url` may be fetched and returns it parsed.
 * @throws TrawlError BAD_REQUEST for a malformed URL or a scheme other than http/https;
 *         SCRAPE_DNS_RESOLUTION_ERROR when the host does not resolve;
 *         UNSAFE_TARGET (403) when it resolves to a private address and private targets are not allowed.
 */
export async function assertFetchable(url: string | URL, policy: TargetPolicy, lookup?: Lookup): Promise<URL> {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    throw new TrawlError('BAD_REQUEST', `Invalid URL: ${String(url).slice(0, 200)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TrawlError('BAD_REQUEST', `Unsupported URL scheme "${parsed.protocol}": only http and https can be scraped`);
  }
  if (policy.allowAll) return parsed;
  const verdict = await createHostGuard(policy, lookup).check(parsed.hostname);
  if (!verdict.ok && verdict.kind === 'unresolved') {
    throw new TrawlError('SCRAPE_DNS_RESOLUTION_ERROR', `DNS resolution failed: ${verdict.reason}.`);
  }
  if (!verdict.ok) {
    throw new TrawlError(
      'UNSAFE_TARGET',
      `Refusing to fetch ${parsed.host}: ${verdict.reason}. ` +
        'Set TRAWL_ALLOW_PRIVATE_TARGETS=true to allow private targets on a trusted network.',
    );
  }
  return parsed;
}
