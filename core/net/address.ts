/**
 * SSRF guard (issue "Foundation" §7): decides whether a target may be fetched. A URL is refused when
 * its scheme is not http(s) or when any address its host resolves to is private, loopback, link-local,
 * multicast or otherwise not publicly routable — unless configuration allows private targets
 * (`TRAWL_ALLOW_PRIVATE_TARGETS=true`, used by tests) or lists the address as an exception
 * (core/net/target-policy.ts). Routes call `assertFetchable` to refuse early; whatever connects goes
 * through core/net/pinned-fetch.ts, which checks every hop and connects to the checked address.
 */
import { guardHostName, isPrivateAddress, resolveHost, systemLookup, type Lookup } from './host-guard.ts';
import { policyLookup, type TargetPolicy } from './target-policy.ts';
import { TrawlError } from '../errors.ts';

export { isPrivateAddress };

/** A URL the guard accepted and the addresses it judged (empty when the guard is off). */
export interface CheckedTarget {
  url: URL;
  /** Addresses of the host, each allowed by the policy; connect to one of these only. */
  addresses: string[];
}

/**
 * Checks that `url` may be fetched, resolving its host once.
 * @throws TrawlError BAD_REQUEST for a malformed URL or a scheme other than http/https;
 *         SCRAPE_DNS_RESOLUTION_ERROR when the host does not resolve;
 *         UNSAFE_TARGET (403) when it resolves to a private address and private targets are not allowed.
 */
export async function checkTarget(url: string | URL, policy: TargetPolicy, lookup?: Lookup): Promise<CheckedTarget> {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    throw new TrawlError('BAD_REQUEST', `Invalid URL: ${String(url).slice(0, 200)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TrawlError('BAD_REQUEST', `Unsupported URL scheme "${parsed.protocol}": only http and https can be scraped`);
  }
  if (policy.allowAll) return { url: parsed, addresses: [] };
  const verdict = await resolveHost(guardHostName(parsed.hostname), policy, lookup ?? policyLookup(policy, systemLookup));
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
  return { url: parsed, addresses: verdict.addresses };
}

/**
 * Checks that `url` may be fetched and returns it parsed (a pre-check: what connects must use
 * core/net/pinned-fetch.ts, which connects to the checked address).
 * @throws as checkTarget
 */
export async function assertFetchable(url: string | URL, policy: TargetPolicy, lookup?: Lookup): Promise<URL> {
  return (await checkTarget(url, policy, lookup)).url;
}
