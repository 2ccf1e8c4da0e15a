/**
 * The threatProtection check of one target URL (compat.md §2.2; issue 17). Called on the start URL
 * (routes), every redirect hop (fetch engine), browser navigations, crawl and map links and search
 * results before they are scraped. Order: whitelist (allows, beats every rule), blacklist, blocked
 * TLDs, then in `normal`/`zscaler` mode the threat lists and the risk score. Each rule has its own
 * error code (403): THREAT_BLOCKED_BLACKLIST, THREAT_BLOCKED_TLD, THREAT_BLOCKED_LIST,
 * THREAT_BLOCKED_RISK_SCORE; THREAT_CHECK_UNAVAILABLE when a list could not be read (or `zscaler`
 * mode has no `zscaler` list) and `failurePolicy` is `closed`.
 */
import { domainToUnicode } from 'node:url';
import { TrawlError, type ErrorCode } from '../errors.ts';
import { hostMatches, type ThreatPolicy } from './policy.ts';
import { markSeen, riskScore, type RiskFacts } from './risk.ts';
import { threatLists } from './lists.ts';

/** What `zscaler` mode lacks on an instance without a Zscaler list, and what to set. */
export const ZSCALER_MISSING =
  'no Zscaler list is configured on this instance: set TRAWL_ZSCALER_LIST_FILE to a file of the domains or URLs your Zscaler policy blocks (one a line; a URL category CSV export works)';

/** Why a target is blocked. */
export interface ThreatBlock {
  code: ErrorCode;
  /** The rule: `blacklist`, `blockedTlds`, `threat-list:<name>`, `riskScoreThreshold`, `failurePolicy`. */
  rule: string;
  message: string;
}

/**
 * Judges one URL against a policy.
 * @param facts response facts when known (content type, for the risk score)
 * @returns the block, or undefined when the URL may be fetched (no policy: always)
 */
export function threatVerdict(url: string, policy: ThreatPolicy | undefined, facts?: RiskFacts): ThreatBlock | undefined {
  if (!policy) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined; // not a URL: other checks refuse it
  }
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  const shown = `${u.protocol}//${u.host}`;
  if (policy.whitelist.some((e) => hostMatches(host, e))) return undefined;
  const black = policy.blacklist.find((e) => hostMatches(host, e));
  if (black) return { code: 'THREAT_BLOCKED_BLACKLIST', rule: 'blacklist', message: `${shown} is blocked by threatProtection: it matches the blacklist entry "${black}".` };
  const tld = host.slice(host.lastIndexOf('.') + 1);
  if (policy.blockedTlds.includes(tld)) return { code: 'THREAT_BLOCKED_TLD', rule: 'blockedTlds', message: `${shown} is blocked by threatProtection: the top-level domain "${tld}" is in blockedTlds.` };
  if (policy.mode === 'manual-only') return undefined;

  const lists = threatLists();
  const failed = lists.filter((l) => l.error).map((l) => `${l.name} (${l.error})`);
  if (policy.mode === 'zscaler' && !lists.some((l) => l.name === 'zscaler' && l.match)) failed.push(`zscaler (${ZSCALER_MISSING})`);
  if (failed.length && policy.failurePolicy === 'closed') {
    return { code: 'THREAT_CHECK_UNAVAILABLE', rule: 'failurePolicy', message: `threatProtection could not check ${shown} and failurePolicy is "closed": ${failed.join('; ')}.` };
  }
  for (const list of lists) {
    const hit = list.match?.(host);
    if (hit) return { code: 'THREAT_BLOCKED_LIST', rule: `threat-list:${list.name}`, message: `${shown} is blocked by threatProtection: the threat list "${list.name}" names ${hit}.` };
  }
  const risk = riskScore(u, facts, domainToUnicode(host));
  if (risk.score >= policy.riskScoreThreshold) {
    return {
      code: 'THREAT_BLOCKED_RISK_SCORE',
      rule: 'riskScoreThreshold',
      message: `${shown} is blocked by threatProtection: its risk score ${risk.score} is at or above riskScoreThreshold ${policy.riskScoreThreshold} (${risk.features.join(', ')}).`,
    };
  }
  markSeen(host);
  return undefined;
}

/**
 * Throws when the policy blocks `url` (see `threatVerdict`).
 * @throws TrawlError THREAT_BLOCKED_* / THREAT_CHECK_UNAVAILABLE (403) with `details: { rule, url }`
 */
export function assertThreatAllowed(url: string, policy: ThreatPolicy | undefined, facts?: RiskFacts): void {
  const block = threatVerdict(url, policy, facts);
  if (block) throw new TrawlError(block.code, block.message, { details: { rule: block.rule, url } });
}
