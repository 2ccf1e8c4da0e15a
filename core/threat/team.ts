/**
 * The team side of threatProtection: reading a team's policy (cached briefly, like team settings)
 * and resolving the policy in force for a request: the request's fields over the team's, with the
 * configured threat lists loaded.
 */
import type { Database } from '../db/client.ts';
import type { ResolvedConfig } from '../config.ts';
import type { Registry } from '../registry.ts';
import { effectiveThreatPolicy, validateThreatPolicy, type ThreatPolicy, type ThreatPolicyInput } from './policy.ts';
import { loadThreatLists, threatLists } from './lists.ts';
import { ZSCALER_MISSING } from './check.ts';
import { TrawlError } from '../errors.ts';

/** How long a team policy read is reused, ms. */
const TTL_MS = 2_000;
const cache = new Map<string, { at: number; policy: ThreatPolicyInput | undefined }>();

/** A team's stored policy, or undefined when it has none (or the team is unknown). */
export async function teamThreatPolicy(db: Database, teamId: string): Promise<ThreatPolicyInput | undefined> {
  const hit = cache.get(teamId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.policy;
  const rows = await db.query<{ threat_policy: ThreatPolicyInput | null }>('select threat_policy from teams where id = $1', [teamId]);
  const policy = rows[0]?.threat_policy ?? undefined;
  if (cache.size >= 10_000) cache.clear();
  cache.set(teamId, { at: Date.now(), policy });
  return policy;
}

/** Forgets cached team policies (after `trawl teams update --threat-policy`). */
export function clearThreatPolicyCache(): void {
  cache.clear();
}

/**
 * The policy in force for one request of `teamId`, lists loaded.
 * @param requested the request's `threatProtection` (validated again here)
 * @param field     its name in errors (`threatProtection` or `scrapeOptions.threatProtection`)
 * @throws TrawlError BAD_REQUEST (400) naming the field for a bad request policy; BACKEND_UNAVAILABLE
 *         (503) for `zscaler` mode with failurePolicy `closed` on an instance without a Zscaler list
 */
export async function resolveThreatPolicy(
  services: { db: Database; registry: Registry; config: ResolvedConfig },
  teamId: string | undefined,
  requested: unknown,
  field = 'threatProtection',
): Promise<ThreatPolicy | undefined> {
  const request = validateThreatPolicy(requested, field);
  const team = teamId ? await teamThreatPolicy(services.db, teamId) : undefined;
  const policy = effectiveThreatPolicy(team, request);
  if (policy && policy.mode !== 'manual-only') await loadThreatLists(services.registry, services.config);
  if (policy?.mode === 'zscaler') zscalerReady(policy, request.mode === 'zscaler' ? field : 'the team threat policy');
  return policy;
}

/**
 * `zscaler` mode needs the `zscaler` threat list (plugins/threat-list/zscaler.ts). Without it (not
 * configured, or unreadable) a `closed` policy cannot act at all, and an `open` one acts without it and
 * says so in a warning.
 * @throws TrawlError BACKEND_UNAVAILABLE (503) naming TRAWL_ZSCALER_LIST_FILE when failurePolicy is closed
 */
function zscalerReady(policy: ThreatPolicy, source: string): void {
  const list = threatLists().find((l) => l.name === 'zscaler');
  if (list?.match) return;
  const why = list?.error ? `the Zscaler list could not be read (${list.error}); fix TRAWL_ZSCALER_LIST_FILE` : ZSCALER_MISSING;
  if (policy.failurePolicy === 'closed') {
    throw new TrawlError('BACKEND_UNAVAILABLE', `threatProtection mode "zscaler" (${source}) cannot act: ${why}. Or use mode "normal". failurePolicy is "closed", so nothing was fetched.`, {
      details: { setting: 'TRAWL_ZSCALER_LIST_FILE' },
    });
  }
  policy.warning = `threatProtection mode "zscaler" (${source}) had no Zscaler verdict: ${why}. failurePolicy is "open", so the blacklist, blockedTlds, the other threat lists and the risk score were applied without it.`;
}
