/**
 * One search, end to end (interface.md "Search response"; compat.md §11.1): query every requested
 * source through the providers, clean the hits, add research papers after the switch date, scrape the
 * web and news results when asked, charge the search credits and record the search job (kind
 * `search`) that feedback refers to. Returns the response body; no HTTP here.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { chargeCredits } from '../credits/ledger.ts';
import { searchCredits } from '../credits/costs.ts';
import { parseQuery } from './operators.ts';
import { searchWithFallback, searchTimeout } from './providers.ts';
import { cleanHits, dropInvalid, toItem, type ResultItem } from './results.ts';
import { mergeScrape, scrapeResultUrls } from './scrape-results.ts';
import { searchAllPapers } from './papers/search.ts';
import { searchableTeams } from './visibility.ts';
import type { PaperResult } from './papers/store.ts';
import type { ResolvedSearch } from './request.ts';
import { recordActivity } from '../audit/activity.ts';

export interface SearchCaller {
  teamId: string;
  keyId?: string;
}

export interface SearchResponseBody {
  success: true;
  data: { web?: ResultItem[]; news?: ResultItem[]; images?: ResultItem[]; research?: PaperResult[] };
  creditsUsed: number;
  /** The search job id (feedback). */
  id: string;
  warning?: string;
  warnings?: string[];
}

/** Search job rows are kept as long as job results (interface.md Limits: 24 h). */
const JOB_RETENTION_MS = 24 * 3600 * 1000;

type Groups = { web?: ResultItem[]; news?: ResultItem[]; images?: ResultItem[] };

/** Provider phase: every source (and the paper index) in parallel, bounded by the search timeout. */
async function collect(services: Services, caller: SearchCaller, r: ResolvedSearch, id: string, deadline: number, warnings: string[], signal?: AbortSignal) {
  const log = services.log.child({ searchId: id });
  const indexTeams = searchableTeams(services.config, caller.teamId);
  const deps = { config: services.config, log, db: services.db, registry: services.registry, blobs: services.blobs, indexTeams };
  const parsed = parseQuery(r.providerQuery);
  const work = Promise.all([
    Promise.all(
      r.sources.map(async (src) => {
        try {
          const { hits } = await searchWithFallback(deps, {
            query: r.providerQuery, source: src.source, limit: r.limit, tbs: src.tbsText, location: src.location,
            country: r.country, lang: r.lang, safe: r.safe, timeoutMs: r.timeoutMs, highlights: r.highlights,
          }, deadline, signal);
          return { source: src.source, items: cleanHits(hits, src, parsed, r.limit).map((h, i) => toItem(h, src.source, i + 1, r)) };
        } catch (e) {
          return { source: src.source, error: TrawlError.wrap(e) };
        }
      }),
    ),
    r.researchPapers
      ? searchAllPapers(deps, r.query, r.limit, {}, signal).catch((e) => {
          warnings.push(`Research papers: ${TrawlError.wrap(e).message}`);
          return [] as PaperResult[];
        })
      : Promise.resolve(undefined),
  ]);
  let handle: ReturnType<typeof setTimeout> | undefined;
  const timer = new Promise<never>((_, reject) => {
    handle = setTimeout(() => reject(searchTimeout(r.timeoutMs)), Math.max(0, deadline - Date.now()));
  });
  try {
    const [perSource, research] = await Promise.race([work, timer]);
    // One source without a working provider does not sink the others: its group is empty, with a warning.
    const failed = perSource.filter((p) => p.error);
    const fatal = failed.find((p) => p.error!.code !== 'BACKEND_UNAVAILABLE');
    if (fatal || (failed.length > 0 && failed.length === perSource.length && !research)) throw (fatal ?? failed[0]).error;
    const groups: Groups = {};
    for (const p of perSource) {
      groups[p.source] = p.items ?? [];
      if (p.error) warnings.push(`${p.source}: ${p.error.message}`);
    }
    return { groups, research };
  } finally {
    clearTimeout(handle);
  }
}

/**
 * Runs a resolved search.
 * @throws TrawlError SCRAPE_TIMEOUT (408) when providers do not answer within `timeout`;
 *         BACKEND_UNAVAILABLE (503) when no provider can answer a requested source
 */
export async function runSearch(services: Services, caller: SearchCaller, r: ResolvedSearch, signal?: AbortSignal): Promise<SearchResponseBody> {
  const id = newId();
  const started = Date.now();
  const deadline = started + r.timeoutMs;
  const quiet = r.enterprise.length > 0; // zdr/anon: the query is neither logged nor stored
  const warnings = [...r.warnings];
  const { groups, research } = await collect(services, caller, r, id, deadline, warnings, signal);
  if (!quiet) services.log.info({ searchId: id, query: r.query, sources: r.sources.map((s) => s.source), ms: Date.now() - started }, 'search answered');

  let scrapeCost = 0;
  if (r.scrape) {
    const web = groups.web ?? [];
    const news = groups.news ?? [];
    const targets = [...web, ...news];
    const outcomes = await scrapeResultUrls(services, targets.map((t) => String(t.url)), r.scrape, caller, deadline);
    const merged = targets.map((t, i) => mergeScrape(t, outcomes[i]));
    scrapeCost = outcomes.reduce((sum, o) => sum + o.credits, 0);
    if (groups.web) groups.web = merged.slice(0, web.length);
    if (groups.news) groups.news = merged.slice(web.length);
    if (r.ignoreInvalidURLs) for (const k of ['web', 'news'] as const) if (groups[k]) groups[k] = dropInvalid(groups[k]!);
    const failed = [...(groups.web ?? []), ...(groups.news ?? [])].filter((it) => (it.metadata as { error?: string })?.error).length;
    if (failed) warnings.push(`${failed} of ${targets.length} results could not be scraped; see metadata.error on those results.`);
  }

  // Only the groups asked for, never empty extras (compat.md §11.1, §21.7).
  const data: SearchResponseBody['data'] = {};
  if (r.webGroup) data.web = groups.web ?? [];
  for (const k of ['news', 'images'] as const) if (r.sources.some((s) => s.source === k)) data[k] = groups[k] ?? [];
  if (research) data.research = research;

  const count = (data.web?.length ?? 0) + (data.news?.length ?? 0) + (data.images?.length ?? 0) + (data.research?.length ?? 0);
  const searchCost = searchCredits(count, r.enterprise);
  await chargeCredits(services.db, { teamId: caller.teamId, apiKeyId: caller.keyId, jobId: id, kind: 'search', refId: id, credits: searchCost });
  const creditsUsed = searchCost + scrapeCost;
  await recordSearchJob(services, id, caller.teamId, r, creditsUsed, quiet);
  await recordActivity(services.db, { id, teamId: caller.teamId, kind: 'search', status: 'completed', credits: creditsUsed, auditMetadata: r.auditMetadata, zeroDataRetention: quiet })
    .catch((err) => services.log.warn({ err }, 'could not record the activity of a search'));

  const body: SearchResponseBody = { success: true, data, creditsUsed, id };
  if (count === 0) body.warning = 'No search results found';
  if (warnings.length) body.warnings = warnings;
  return body;
}

/** Stores the search job row (kind `search`) that feedback finds; zdr/anon searches keep no query. */
async function recordSearchJob(services: Services, id: string, teamId: string, r: ResolvedSearch, credits: number, quiet: boolean): Promise<void> {
  const options: Record<string, unknown> = {
    sources: r.sources.map((s) => s.source),
    limit: r.limit,
    categories: r.categories,
    research: r.researchPapers,
    scrape: Boolean(r.scrape),
    enterprise: r.enterprise,
  };
  if (!quiet) options.query = r.query;
  await services.db.query(
    `INSERT INTO jobs (id, team_id, kind, status, options, credits_used, zero_data_retention, completed_at, expires_at)
     VALUES ($1, $2, 'search', 'completed', $3, $4, $5, now(), $6)`,
    [id, teamId, options, credits, r.enterprise.includes('zdr'), new Date(Date.now() + JOB_RETENTION_MS)],
  );
}
