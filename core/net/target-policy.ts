/**
 * The SSRF guard's configuration as plain data (`TargetPolicy`), built once by core/config.ts and passed
 * down to every place that reaches a target: engines, crawl resources, webhooks, search results.
 *
 * - `TRAWL_ALLOW_PRIVATE_TARGETS=true` turns the guard off (`allowAll`);
 * - `TRAWL_ALLOW_PRIVATE_TARGETS=10.0.0.5,192.168.1.0/24` keeps it on but lets these private addresses
 *   through (`exceptions`): an operator can allow one internal host without opening the rest of the
 *   network;
 * - `TRAWL_DNS_SERVERS=10.0.0.2,10.0.0.3:5353` makes the guard resolve names with these servers
 *   instead of the system resolver (`dnsServers`).
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Resolves a host name to its addresses (all families). */
export type Lookup = (hostname: string) => Promise<string[]>;

/** What the guard allows; plain data, so it can travel in a job. */
export interface TargetPolicy {
  /** The guard is off: every address may be reached. */
  readonly allowAll: boolean;
  /** CIDR blocks (`a.b.c.d/n`, `x::/n`; a bare address is a /32 or /128) allowed although private. */
  readonly exceptions: readonly string[];
  /** DNS servers (`ip` or `ip:port`, `[v6]:port`) the guard resolves with; empty: the system resolver. */
  readonly dnsServers: readonly string[];
}

/** The guard fully on, system resolver: what an unconfigured instance does. */
export const GUARDED: TargetPolicy = Object.freeze({ allowAll: false, exceptions: Object.freeze([]), dnsServers: Object.freeze([]) });
/** The guard off (`TRAWL_ALLOW_PRIVATE_TARGETS=true`). */
export const UNGUARDED: TargetPolicy = Object.freeze({ allowAll: true, exceptions: Object.freeze([]), dnsServers: Object.freeze([]) });

/**
 * Parses one CIDR block or address.
 * @returns `[address, prefixBits]`, or undefined when it does not parse
 */
export function parseCidr(text: string): [string, number] | undefined {
  const [addr, bits, extra] = text.trim().split('/');
  if (extra !== undefined || !addr) return undefined;
  const family = isIP(addr);
  if (!family) return undefined;
  const max = family === 4 ? 32 : 128;
  if (bits === undefined) return [addr, max];
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return undefined;
  return [addr, Number(bits)];
}

/**
 * Parses `TRAWL_DNS_SERVERS`' entries (`ip`, `ip:port`, `[v6]:port`).
 * @returns the servers in the form `Resolver.setServers` takes, or undefined when one does not parse
 */
export function parseDnsServers(text: string): string[] | undefined {
  const out: string[] = [];
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = part.match(/^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/) ?? part.match(/^([0-9.]+)(?::(\d{1,5}))?$/) ?? part.match(/^([0-9a-fA-F:]+)()$/);
    if (!m || !isIP(m[1]!) || (m[2] && Number(m[2]) > 65535)) return undefined;
    out.push(part);
  }
  return out;
}

const resolvers = new Map<string, Lookup>();

/**
 * The resolver of a policy: the system's, or one that asks `dnsServers` (A and AAAA), memoized per
 * server list.
 * @throws (when called) the resolver's error when the name has no address
 */
export function policyLookup(policy: TargetPolicy, system: Lookup): Lookup {
  if (policy.dnsServers.length === 0) return system;
  const key = policy.dnsServers.join(',');
  let lookup = resolvers.get(key);
  if (!lookup) {
    const resolver = new Resolver({ timeout: 5_000, tries: 2 });
    resolver.setServers([...policy.dnsServers]);
    lookup = async (hostname) => {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const out = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
      if (out.length === 0) throw v4.status === 'rejected' ? v4.reason : new Error(`${hostname} has no address`);
      return out;
    };
    resolvers.set(key, lookup);
  }
  return lookup;
}
