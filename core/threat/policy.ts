/**
 * `threatProtection` policies (compat.md §2.2): the shape a request or a team gives, validation with
 * 400s naming the field, and the merge of a request over its team's policy (field by field; with no
 * team policy only the request's lists apply, as [T] says).
 *
 * Lists hold domains (`example.com`: the host and its subdomains) or globs `*.example.com`
 * (subdomains only). Internationalized names are compared in punycode. At most 1000 entries each.
 */
import { domainToASCII } from 'node:url';
import { TrawlError } from '../errors.ts';

export const THREAT_MODES = ['off', 'manual-only', 'normal', 'zscaler'] as const;
export type ThreatMode = (typeof THREAT_MODES)[number];
/** Longest list a policy may hold (compat.md §2.2). */
export const MAX_LIST_ENTRIES = 1000;
/** Risk score threshold when a policy turns scoring on without one. */
export const DEFAULT_RISK_THRESHOLD = 70;

/** A policy as given (request option or team setting); every field optional. */
export interface ThreatPolicyInput {
  mode?: ThreatMode;
  riskScoreThreshold?: number;
  blacklist?: string[];
  whitelist?: string[];
  blockedTlds?: string[];
  failurePolicy?: 'open' | 'closed';
}

/** The policy in force for one request: the request's fields over the team's. */
export interface ThreatPolicy {
  mode: ThreatMode;
  /** 0–100; a score at or above blocks. Used in `normal` and `zscaler` mode. */
  riskScoreThreshold: number;
  /** Normalized (lower-case punycode) domains and `*.` globs. */
  blacklist: string[];
  whitelist: string[];
  /** Lower-case, without dot. */
  blockedTlds: string[];
  failurePolicy: 'open' | 'closed';
  /**
   * Set when the policy cannot do all it asks and `failurePolicy` is `open` (`zscaler` mode without a
   * Zscaler list): the caller's responses carry it as their `warning`.
   */
  warning?: string;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function bad(field: string, message: string): TrawlError {
  return new TrawlError('BAD_REQUEST', `${field}: ${message}`, { details: [{ path: field, message }] });
}

/** Normalizes one list entry, or throws naming `field`. */
function normalizeEntry(entry: unknown, field: string): string {
  if (typeof entry !== 'string') throw bad(field, 'must be a domain or a "*.domain" glob');
  let s = entry.trim().toLowerCase().replace(/\.$/, '');
  const glob = s.startsWith('*.');
  if (glob) s = s.slice(2);
  const ascii = domainToASCII(s);
  const labels = ascii.split('.');
  if (!ascii || ascii.length > 253 || s.includes('*') || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    throw bad(field, `"${String(entry).slice(0, 100)}" is not a domain or a "*.domain" glob (a "*" may only open the pattern)`);
  }
  return glob ? `*.${ascii}` : ascii;
}

function list(value: unknown, field: string, entry: (v: unknown, f: string) => string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw bad(field, 'must be an array');
  if (value.length > MAX_LIST_ENTRIES) throw bad(field, `has ${value.length} entries; at most ${MAX_LIST_ENTRIES} are allowed`);
  return value.map((v, i) => entry(v, `${field}[${i}]`));
}

function tld(value: unknown, field: string): string {
  const s = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const ascii = domainToASCII(s);
  if (!ascii || !LABEL.test(ascii) || /^\d+$/.test(ascii)) throw bad(field, `"${String(value).slice(0, 50)}" is not a top-level domain (lowercase, without dot, e.g. "zip")`);
  return ascii;
}

/**
 * Validates and normalizes a policy input.
 * @param field the name of the option in errors (`threatProtection`, or the admin API's field)
 * @throws TrawlError BAD_REQUEST (400) naming the field: unknown mode, threshold outside 0–100, an
 *         invalid domain or glob, a list over 1000 entries, an unknown failure policy
 */
export function validateThreatPolicy(input: unknown, field = 'threatProtection'): ThreatPolicyInput {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw bad(field, 'must be an object');
  const o = input as Record<string, unknown>;
  const out: ThreatPolicyInput = {};
  if (o.mode !== undefined) {
    if (!THREAT_MODES.includes(o.mode as ThreatMode)) throw bad(`${field}.mode`, `must be one of ${THREAT_MODES.join(', ')}`);
    out.mode = o.mode as ThreatMode;
  }
  if (o.riskScoreThreshold !== undefined) {
    const t = o.riskScoreThreshold;
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 100) throw bad(`${field}.riskScoreThreshold`, 'must be a number from 0 to 100');
    out.riskScoreThreshold = t;
  }
  if (o.failurePolicy !== undefined) {
    if (o.failurePolicy !== 'open' && o.failurePolicy !== 'closed') throw bad(`${field}.failurePolicy`, 'must be "open" or "closed"');
    out.failurePolicy = o.failurePolicy;
  }
  out.blacklist = list(o.blacklist, `${field}.blacklist`, normalizeEntry);
  out.whitelist = list(o.whitelist, `${field}.whitelist`, normalizeEntry);
  out.blockedTlds = list(o.blockedTlds, `${field}.blockedTlds`, tld);
  for (const k of Object.keys(out) as (keyof ThreatPolicyInput)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/**
 * The policy in force: the request's fields over the team's. Without a team policy the mode is
 * `manual-only` (lists and TLDs, no risk score), else the team's mode (default `normal`).
 * @returns undefined when nothing is to be checked (no lists, no TLDs, mode off or manual-only)
 */
export function effectiveThreatPolicy(team: ThreatPolicyInput | undefined, request: ThreatPolicyInput | undefined): ThreatPolicy | undefined {
  const t = team ?? {};
  const r = request ?? {};
  const policy: ThreatPolicy = {
    mode: r.mode ?? t.mode ?? (team ? 'normal' : 'manual-only'),
    riskScoreThreshold: r.riskScoreThreshold ?? t.riskScoreThreshold ?? DEFAULT_RISK_THRESHOLD,
    blacklist: r.blacklist ?? t.blacklist ?? [],
    whitelist: r.whitelist ?? t.whitelist ?? [],
    blockedTlds: r.blockedTlds ?? t.blockedTlds ?? [],
    failurePolicy: r.failurePolicy ?? t.failurePolicy ?? 'open',
  };
  if (policy.mode === 'off') return undefined;
  const lists = policy.blacklist.length + policy.blockedTlds.length;
  if (policy.mode === 'manual-only' && lists === 0) return undefined;
  return policy;
}

/** Whether `host` (lower-case ASCII) matches a normalized entry. */
export function hostMatches(host: string, entry: string): boolean {
  if (entry.startsWith('*.')) return host.endsWith(entry.slice(1));
  return host === entry || host.endsWith(`.${entry}`);
}
