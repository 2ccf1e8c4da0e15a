/**
 * The SSRF guard's rules, shared by every engine: `isPrivateAddress` classifies an IP literal and
 * `createHostGuard` judges a host name (resolving it with the system resolver and refusing it when
 * any address is private, loopback, link-local or otherwise not globally routable). The fetch engine
 * checks every redirect hop with it (core/net/address.ts); the browser engine checks every request a
 * page makes (document, redirects, subresources, frames).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { GUARDED, parseCidr, policyLookup, type Lookup, type TargetPolicy } from './target-policy.ts';

export type { Lookup };

/** What the guard says about one host: `ok`, or a refusal with a reason. */
export type HostVerdict = { ok: true } | { ok: false; reason: string; kind: 'private' | 'unresolved' };

const V4_BLOCKS: [string, number][] = [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function v4ToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

function v4Private(ip: string): boolean {
  const n = v4ToInt(ip);
  if (n === undefined) return true;
  return V4_BLOCKS.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : 2 ** 32 - 2 ** (32 - bits);
    return (n & mask) >>> 0 === ((v4ToInt(base)! & mask) >>> 0);
  });
}

/** Expands an IPv6 address to 8 16-bit groups (handles `::` and an embedded IPv4 tail). */
function v6Groups(ip: string): number[] | undefined {
  let s = ip.toLowerCase().split('%')[0]!;
  const tail = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (tail) {
    const n = v4ToInt(tail[1]!);
    if (n === undefined) return undefined;
    s = s.slice(0, -tail[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const all = [...head, ...Array(Math.max(0, fill)).fill('0'), ...rest];
  if (all.length !== 8) return undefined;
  const out = all.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN));
  return out.some(Number.isNaN) ? undefined : out;
}

const v4FromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * Whether an IP address is not a public internet address: private (RFC 1918, fc00::/7), loopback,
 * link-local (169.254/16 with cloud metadata, fe80::/10), carrier-grade NAT, multicast, reserved,
 * documentation and unspecified ranges. IPv4 embedded in IPv6 (mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`) is judged by its IPv4 part; the embeddings that are never publicly
 * routed or hide the IPv4 they reach (IPv4-compatible `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, local-use
 * NAT64 `64:ff9b:1::/48`, Teredo `2001::/32`) are private whatever they embed, as are benchmarking
 * `2001:2::/48` and ORCHID `2001:10::/28`, `2001:20::/28`. Anything that does not parse counts as private.
 *
 * @param ip an IPv4 or IPv6 address literal (no brackets)
 */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return v4Private(ip);
  if (family !== 6) return true;
  const g = v6Groups(ip);
  if (!g) return true;
  const [a, b] = g as [number, number];
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  const zero4 = g.slice(0, 4).every((x) => x === 0);
  if (zero4 && g[4] === 0 && g[5] === 0xffff) return v4Private(v4FromGroups(g[6]!, g[7]!)); // ::ffff:a.b.c.d mapped
  if (zero4 && g[4] === 0 && g[5] === 0) return true; // ::a.b.c.d IPv4-compatible (deprecated, never routed)
  if (zero4 && g[4] === 0xffff && g[5] === 0) return true; // ::ffff:0:a.b.c.d SIIT translated (RFC 6145)
  if (a === 0x64 && b === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Private(v4FromGroups(g[6]!, g[7]!)); // NAT64
  if (a === 0x64 && b === 0xff9b) return true; // 64:ff9b:1::/48 local-use NAT64 (RFC 8215) and the rest of 64:ff9b::/32
  if (a === 0x2002) return v4Private(v4FromGroups(b, g[2]!)); // 6to4
  if (a === 0x2001 && b === 0) return true; // Teredo 2001::/32: the relay reaches an embedded IPv4
  if (a === 0x2001 && b === 2 && g[2] === 0) return true; // benchmarking 2001:2::/48
  if (a === 0x2001 && (b & 0xfff0) === 0x10) return true; // ORCHID 2001:10::/28
  if (a === 0x2001 && (b & 0xfff0) === 0x20) return true; // ORCHIDv2 2001:20::/28
  if ((a & 0xfe00) === 0xfc00) return true; // unique local
  if ((a & 0xffc0) === 0xfe80) return true; // link-local
  if ((a & 0xffc0) === 0xfec0) return true; // site-local (deprecated)
  if ((a & 0xff00) === 0xff00) return true; // multicast
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  if (a === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return true; // discard 100::/64
  return false;
}

/**
 * Whether `ip` lies in the CIDR block `cidr` (`a.b.c.d/n`, `x::/n`, or a bare address). An IPv4 address
 * and an IPv6 block (or the reverse) never match.
 */
export function inCidr(ip: string, cidr: string): boolean {
  const block = parseCidr(cidr);
  if (!block) return false;
  const [base, bits] = block;
  const family = isIP(ip);
  if (family !== isIP(base)) return false;
  if (family === 4) {
    const mask = bits === 0 ? 0 : 2 ** 32 - 2 ** (32 - bits);
    return (v4ToInt(ip)! & mask) >>> 0 === ((v4ToInt(base)! & mask) >>> 0);
  }
  const a = v6Groups(ip);
  const b = v6Groups(base);
  if (!a || !b) return false;
  for (let i = 0, left = bits; i < 8 && left > 0; i++, left -= 16) {
    const mask = left >= 16 ? 0xffff : (0xffff << (16 - left)) & 0xffff;
    if ((a[i]! & mask) !== (b[i]! & mask)) return false;
  }
  return true;
}

/**
 * Whether the guard refuses to connect to `ip` under `policy`: a private address (isPrivateAddress)
 * that no exception of the policy covers. With `allowAll` nothing is refused.
 */
export function isBlockedAddress(ip: string, policy: TargetPolicy): boolean {
  if (policy.allowAll) return false;
  if (!isPrivateAddress(ip)) return false;
  const bare = ip.replace(/^\[|\]$/g, '');
  return !policy.exceptions.some((c) => inCidr(bare, c));
}

/** System resolver: every address of a name. */
export const systemLookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((r) => r.address);

/** A verdict with the addresses the host was judged by: the literal itself, the resolved ones, or none with `allowAll`. */
export type ResolvedHost = { ok: true; addresses: string[] } | Extract<HostVerdict, { ok: false }>;

/**
 * Resolves `host` once and judges every address it has: what a connection must then be pinned to
 * (core/net/pinned-fetch.ts), so a second resolution cannot rebind it to a private address.
 *
 * @param host a host name or IP literal, lowercase, no brackets or trailing dot
 * @param lookup the resolver (the policy's DNS servers or the system's)
 */
export async function resolveHost(host: string, policy: TargetPolicy, lookup: Lookup): Promise<ResolvedHost> {
  if (policy.allowAll) return { ok: true, addresses: [] };
  if ((host === 'localhost' || host.endsWith('.localhost')) && !isIP(host)) {
    if (policy.exceptions.length === 0) return { ok: false, kind: 'private', reason: `${host} is a loopback name` };
  }
  if (isIP(host)) {
    return isBlockedAddress(host, policy) ? { ok: false, kind: 'private', reason: `${host} is a private address` } : { ok: true, addresses: [host] };
  }
  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch (e) {
    return { ok: false, kind: 'unresolved', reason: `${host} could not be resolved (${(e as Error).message})` };
  }
  if (addresses.length === 0) return { ok: false, kind: 'unresolved', reason: `${host} has no address` };
  // The address stays out of the reason: errors must not map internal names to addresses (issue 15).
  if (addresses.some((a) => isBlockedAddress(a, policy))) return { ok: false, kind: 'private', reason: `${host} resolves to a private address` };
  return { ok: true, addresses };
}

/** `URL.hostname` as the guard keys it: no brackets, lowercase, no trailing dot. */
export const guardHostName = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');

/**
 * Creates a per-job host checker with a small cache (a page asks about the same hosts many times).
 *
 * @param policy what the guard allows (exceptions, DNS servers); `allowAll` makes every verdict `ok`
 * @param lookup resolver override (default: the policy's DNS servers, else the system resolver)
 * @returns `check(hostname)` → verdict; `hostname` as in `URL.hostname` (IPv6 may be bracketed)
 */
export function createHostGuard(policy: TargetPolicy = GUARDED, lookup: Lookup = policyLookup(policy, systemLookup)) {
  const cache = new Map<string, Promise<HostVerdict>>();
  const judge = async (host: string): Promise<HostVerdict> => {
    const v = await resolveHost(host, policy, lookup);
    return v.ok ? { ok: true } : v;
  };
  return {
    check(hostname: string): Promise<HostVerdict> {
      const host = guardHostName(hostname);
      let v = cache.get(host);
      if (!v) {
        v = judge(host);
        cache.set(host, v);
      }
      return v;
    },
  };
}

export type HostGuard = ReturnType<typeof createHostGuard>;
