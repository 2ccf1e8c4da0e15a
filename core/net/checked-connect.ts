/**
 * Connecting to exactly the address the SSRF guard checked (issue 15 items 4 and 5): a resolver that
 * resolves each host once per job (with the policy's lookup), judges every address with
 * `isBlockedAddress`, and hands out those same addresses, plus `connectChecked`, which opens a TCP
 * connection to one of them. Nothing resolves the name a second time, so a DNS answer that changes
 * between the check and the connection (rebinding) cannot move the connection to another address.
 * The browser's guarding proxy (plugins/proxy/gate) uses it for every connection Chromium makes; the
 * fetch engine and webhooks can use it the same way.
 */
import net from 'node:net';
import { isBlockedAddress, systemLookup } from './host-guard.ts';
import { policyLookup, type Lookup, type TargetPolicy } from './target-policy.ts';

/** What checking one host gave: the addresses to connect to, or why not. */
export type CheckedHost =
  | { ok: true; addresses: string[] }
  | { ok: false; kind: 'private' | 'unresolved'; reason: string };

export interface CheckedResolver {
  /**
   * The host's addresses, resolved once and remembered for the resolver's life (an IP literal is its
   * own address). Has the shape of a `Lookup`, so a host guard can share the answers.
   * @throws the lookup's error when the name does not resolve
   */
  addresses: Lookup;
  /** Resolves `host` (as `addresses` does) and judges it; never throws. */
  check(host: string): Promise<CheckedHost>;
}

/** `[::1]` → `::1`, lower case, no trailing dot. */
export const bareHost = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');

/**
 * Creates a resolver for one job (a scrape, a webhook delivery).
 * @param policy what the guard allows; with `allowAll` every resolved address is accepted
 * @param lookup resolver override (default: the policy's DNS servers, else the system resolver)
 */
export function createCheckedResolver(policy: TargetPolicy, lookup: Lookup = policyLookup(policy, systemLookup)): CheckedResolver {
  const cache = new Map<string, Promise<string[]>>();
  const addresses: Lookup = (hostname) => {
    const host = bareHost(hostname);
    let p = cache.get(host);
    if (!p) {
      p = net.isIP(host) ? Promise.resolve([host]) : lookup(host);
      p.catch(() => undefined);
      cache.set(host, p);
    }
    return p;
  };
  return {
    addresses,
    async check(hostname) {
      const host = bareHost(hostname);
      let list: string[];
      try {
        list = await addresses(host);
      } catch (e) {
        return { ok: false, kind: 'unresolved', reason: `${host} could not be resolved (${(e as Error).message})` };
      }
      if (list.length === 0) return { ok: false, kind: 'unresolved', reason: `${host} has no address` };
      if (list.some((a) => isBlockedAddress(a, policy))) {
        return { ok: false, kind: 'private', reason: net.isIP(host) ? `${host} is a private address` : `${host} resolves to a private address` };
      }
      return { ok: true, addresses: list };
    },
  };
}

/**
 * Opens a TCP connection to the first of `addresses` that answers (in order), on `port`.
 * @param timeoutMs per address, ms
 * @throws Error of the last address tried (refused, unreachable, timed out)
 */
export async function connectChecked(addresses: readonly string[], port: number, timeoutMs = 10_000): Promise<net.Socket> {
  let last: Error = new Error('no address to connect to');
  for (const address of addresses) {
    try {
      return await connectOne(address, port, timeoutMs);
    } catch (e) {
      last = e as Error;
    }
  }
  throw last;
}

function connectOne(host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    // An IP literal: net.connect does no lookup of its own.
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => socket.destroy(new Error(`connecting to port ${port} timed out after ${timeoutMs} ms`)), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      socket.destroy();
      reject(e);
    });
  });
}
