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
 * documentation and unspecified ranges. IPv4 embedded in IPv6 (`::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002::/16`) is judged by its IPv4 part. Anything that does not parse counts as private.
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
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return v4Private(v4FromGroups(g[6]!, g[7]!));
  if (a === 0x64 && b === 0xff9b) return v4Private(v4FromGroups(g[6]!, g[7]!)); // NAT64
  if (a === 0x2002) return v4Private(v4FromGroups(b, g[2]!)); // 6to4
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

/**
 * Creates a per-job host checker with a small cache (a page asks about the same hosts many times).
 *
 * @param policy what the guard allows (exceptions, DNS servers); `allowAll` makes every verdict `ok`
 * @param lookup resolver override (default: the policy's DNS servers, else the system resolver)
 * @returns `check(hostname)` → verdict; `hostname` as in `URL.hostname` (IPv6 may be bracketed)
 */
export function createHostGuard(policy: TargetPolicy = GUARDED, lookup: Lookup = policyLookup(policy, systemLookup)) {
  const cache = new Map<string, Promise<HostVerdict>>();
  async function judge(host: string): Promise<HostVerdict> {
    if (policy.allowAll) return { ok: true };
    if ((host === 'localhost' || host.endsWith('.localhost')) && !isIP(host)) {
      if (policy.exceptions.length === 0) return { ok: false, kind: 'private', reason: `${host} is a loopback name` };
    }
    if (isIP(host)) {
      return isBlockedAddress(host, policy) ? { ok: false, kind: 'private', reason: `${host} is a private address` } : { ok: true };
    }
    let addresses: string[];
    try {
      addresses = await lookup(host);
    } catch (e) {
      return { ok: false, kind: 'unresolved', reason: `${host} could not be resolved (${(e as Error).message})` };
    }
    if (addresses.length === 0) return { ok: false, kind: 'unresolved', reason: `${host} has no address` };
    const bad = addresses.find((a) => isBlockedAddress(a, policy));
    return bad ? { ok: false, kind: 'private', reason: `${host} resolves to the private address ${bad}` } : { ok: true };
  }
  return {
    check(hostname: string): Promise<HostVerdict> {
      const host = hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
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
