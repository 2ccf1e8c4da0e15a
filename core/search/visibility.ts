/**
 * Who sees which pages of the local search index (issue 15 item 3). The index is per team: a page is
 * written under the team whose scrape produced it, and only when the scrape could not carry anything
 * private (`indexable`). A search reads its own team's pages and the pages of the teams the operator
 * lists in `TRAWL_SEARCH_PUBLIC_TEAMS` (`searchableTeams`); keyless callers, who share one team that
 * anyone can use, see only those public teams' pages. With `TRAWL_AUTH=off` every request runs as the
 * local team, so the single user sees everything it indexed.
 */
import type { ResolvedConfig } from '../config.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { KEYLESS_TEAM_ID, LOCAL_TEAM_ID } from '../auth/authenticate.ts';
import { cacheable } from '../cache/index.ts';

/** Names the public-teams setting accepts besides team ids: the built-in teams. */
const BUILTIN_TEAM_NAMES: Record<string, string> = { keyless: KEYLESS_TEAM_ID, local: LOCAL_TEAM_ID };

/**
 * The teams whose indexed pages a caller's search may read: its own (unless it is the shared keyless
 * team) and the operator's public teams (`config.search.publicTeams`; `local` and `keyless` name the
 * built-in teams).
 * @param teamId the caller's team (Principal.teamId)
 */
export function searchableTeams(config: ResolvedConfig, teamId: string): string[] {
  const teams = new Set(config.search.publicTeams.map((t) => BUILTIN_TEAM_NAMES[t] ?? t));
  if (teamId !== KEYLESS_TEAM_ID) teams.add(teamId);
  return [...teams];
}

/**
 * Whether a scrape's document may enter the index (and the shared scrape cache): never for zero data
 * retention, `storeInCache: false`, or a scrape whose output may hold what only its caller may see
 * (actions, custom headers such as cookies, a browser profile; core/cache `cacheable`).
 */
export function indexable(options: ScrapeOptions): boolean {
  return options.storeInCache && !options.zeroDataRetention && cacheable(options);
}
