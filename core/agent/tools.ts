/**
 * The agent's tools (issue 19): what the model may call, each on Trawl's own machinery and charged
 * to the team as the matching endpoint would be.
 * - `search` {query, limit?}: the configured search providers (core/search/run.ts; 2 credits per 10
 *   results, charged by the search itself). Not offered under `strictConstrainToURLs`.
 * - `map` {url, search?, limit?}: the site's URLs (core/crawl/map.ts; 1 credit).
 * - `scrape` {url}: the page as markdown, through the scrape queue (1 credit per page, as a scrape).
 * - `extract` {urls, prompt?}: the `json` format run over each page through the scrape queue with the
 *   run's schema (5 credits per page, as a scrape with the json format; the format's model tokens
 *   are counted for the run).
 * Every URL passes the target policy (SSRF guard), the run's threat policy and, under
 * `strictConstrainToURLs`, the run's URLs. A tool failure is told to the model, never thrown, except
 * a cancel (the signal).
 */
import type { Services } from '../services.ts';
import type { ModelTool } from '../plugin.ts';
import type { ThreatPolicy } from '../threat/policy.ts';
import type { Logger } from '../log.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { normalizeTargetUrl, resolveScrapeOptions } from '../pipeline/scrape-options.ts';
import { assertFetchable } from '../net/address.ts';
import { assertThreatAllowed, threatVerdict } from '../threat/check.ts';
import { SCRAPE_QUEUE, type ScrapeJobData, type ScrapeJobResult } from '../jobs/scrape.ts';
import { runSearch } from '../search/run.ts';
import { resolveSearchRequest } from '../search/request.ts';
import { runMap } from '../crawl/map.ts';
import { withDeadline } from '../net/deadline.ts';
import { chargeCredits } from '../credits/ledger.ts';
import { COSTS } from '../credits/costs.ts';
import { formatCredits, structuredDataFormat } from '../scrape/formats.ts';
import { withinUrls, type AgentRequest } from './options.ts';

/** Most characters of one tool answer shown to the model. */
export const MAX_TOOL_TEXT = 12_000;
/** Time one scrape or extract page may take, ms. */
const PAGE_TIMEOUT_MS = 60_000;
/** Time one map may take, ms. */
const MAP_TIMEOUT_MS = 60_000;
/** Most pages of one extract call. */
const MAX_EXTRACT_URLS = 5;

/** What a tool run needs. */
export interface ToolContext {
  services: Services;
  /** The agent run's id (scrapes and model tokens are counted for it). */
  jobId: string;
  teamId: string;
  keyId?: string;
  request: AgentRequest;
  threat?: ThreatPolicy;
  signal: AbortSignal;
  log: Logger;
  /** Numbers the step of this call (ledger reference of a map). */
  seq: number;
}

/** What a tool call gave. */
export interface ToolOutcome {
  /** The answer shown to the model. */
  text: string;
  /** One line for the trace. */
  summary: string;
  credits: number;
  ok: boolean;
}

export interface AgentTool {
  def: ModelTool;
  /**
   * Least credits a call with these arguments costs in this run (the run stops before a call it cannot pay).
   * @param services the registered plugins (a format's declared credits)
   */
  minCredits(args: Record<string, any>, request: AgentRequest, services: Services): number;
  run(args: Record<string, any>, ctx: ToolContext): Promise<ToolOutcome>;
}

const clip = (s: string, n = MAX_TOOL_TEXT) => (s.length > n ? `${s.slice(0, n)}\n[… cut at ${n} characters]` : s);

/**
 * Checks a URL the model gave.
 * @throws TrawlError BAD_REQUEST (not a URL, outside the run's URLs), UNSAFE_TARGET, THREAT_BLOCKED_*
 */
async function checkedUrl(raw: unknown, ctx: ToolContext): Promise<string> {
  const url = normalizeTargetUrl(String(raw ?? ''));
  if (ctx.request.strictConstrainToURLs && !withinUrls(url, ctx.request.urls)) {
    throw new TrawlError('BAD_REQUEST', `${url} is outside the URLs this run is constrained to (strictConstrainToURLs).`);
  }
  assertThreatAllowed(url, ctx.threat);
  await assertFetchable(url, ctx.services.config.targets);
  return url;
}

/** Scrapes one page through the scrape queue with `formats` (undefined: the default formats, markdown); the document and its credits. */
async function scrapePage(ctx: ToolContext, url: string, formats: unknown[] | undefined): Promise<{ doc: Record<string, any>; credits: number }> {
  const options = resolveScrapeOptions({ ...(formats ? { formats } : {}), onlyMainContent: true, timeout: PAGE_TIMEOUT_MS, zeroDataRetention: ctx.request.zeroDataRetention }, ctx.services.formats, 'scrape');
  options.threatProtection = ctx.threat;
  const scrapeId = newId();
  const data: ScrapeJobData = { scrapeId, url, sourceURL: url, options, teamId: ctx.teamId, keyId: ctx.keyId, jobId: ctx.jobId };
  await ctx.services.queue.add(SCRAPE_QUEUE, 'scrape', data, { id: scrapeId });
  const stop = () => void ctx.services.queue.cancel(scrapeId).catch(() => false);
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const result = await ctx.services.queue.waitFor<ScrapeJobResult>(scrapeId, PAGE_TIMEOUT_MS + 15_000);
    const doc = JSON.parse(result.document) as Record<string, any>;
    return { doc, credits: Number(doc.metadata?.creditsUsed) || 0 };
  } catch (e) {
    const err = TrawlError.wrap(e);
    if (err.code === 'GATEWAY_TIMEOUT') stop();
    throw err;
  } finally {
    ctx.signal.removeEventListener('abort', stop);
  }
}

const failed = (what: string, e: unknown): ToolOutcome => {
  const err = TrawlError.wrap(e);
  return { text: `Error: ${what} failed (${err.code}): ${err.message}`, summary: `failed: ${err.code}`, credits: 0, ok: false };
};

const search: AgentTool = {
  def: {
    type: 'function',
    function: {
      name: 'search',
      description: 'Search the web. Returns result titles, URLs and descriptions.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What to search for' }, limit: { type: 'integer', minimum: 1, maximum: 10, description: 'Results (default 5)' } },
        required: ['query'],
      },
    },
  },
  minCredits: (_args, request) => (request.zeroDataRetention ? COSTS.searchZdrPer10 : COSTS.searchPer10),
  async run(args, ctx) {
    try {
      const limit = Math.min(10, Math.max(1, Number(args.limit) || 5));
      const body0 = { query: String(args.query ?? ''), limit, ...(ctx.request.zeroDataRetention ? { enterprise: ['zdr'] } : {}) };
      const resolved = resolveSearchRequest(body0, ctx.services.formats, { researchSwitchDate: ctx.services.config.researchSwitchDate });
      const body = await runSearch(ctx.services, { teamId: ctx.teamId, keyId: ctx.keyId }, resolved, ctx.signal);
      const items = [...(body.data.web ?? []), ...(body.data.news ?? [])].filter((i) => !threatVerdict(String(i.url), ctx.threat));
      const lines = items.map((i, n) => `${n + 1}. ${i.title ?? ''}\n   ${i.url}\n   ${i.description ?? i.snippet ?? ''}`);
      return { text: clip(lines.join('\n') || 'No results.'), summary: `${items.length} results`, credits: body.creditsUsed, ok: true };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return failed('search', e);
    }
  },
};

const map: AgentTool = {
  def: {
    type: 'function',
    function: {
      name: 'map',
      description: 'List the URLs of a web site (from its sitemap and links), optionally ordered by relevance to a search term.',
      parameters: {
        type: 'object',
        properties: {
          url: { type: 'string', description: 'A URL of the site' },
          search: { type: 'string', description: 'Words to order the URLs by' },
          limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Most URLs (default 50)' },
        },
        required: ['url'],
      },
    },
  },
  minCredits: () => COSTS.map,
  async run(args, ctx) {
    try {
      const url = await checkedUrl(args.url, ctx);
      const limit = Math.min(200, Math.max(1, Number(args.limit) || 50));
      const deps = { config: ctx.services.config, log: ctx.log, registry: ctx.services.registry, blobs: ctx.services.blobs };
      const req = { url, search: typeof args.search === 'string' ? args.search : undefined, sitemap: 'include' as const, includeSubdomains: false, ignoreQueryParameters: true, limit };
      const result = await withDeadline(MAP_TIMEOUT_MS, ctx.signal, (signal) => runMap(deps, req, signal));
      await chargeCredits(ctx.services.db, { teamId: ctx.teamId, apiKeyId: ctx.keyId, jobId: ctx.jobId, kind: 'map', refId: `${ctx.jobId}:map:${ctx.seq}`, credits: COSTS.map });
      const links = result.links.filter((l) => !threatVerdict(l.url, ctx.threat) && (!ctx.request.strictConstrainToURLs || withinUrls(l.url, ctx.request.urls)));
      const lines = links.map((l) => (l.title ? `${l.url} (${l.title})` : l.url));
      return { text: clip(lines.join('\n') || 'No URLs found.'), summary: `${links.length} URLs`, credits: COSTS.map, ok: true };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return failed('map', e);
    }
  },
};

const scrape: AgentTool = {
  def: {
    type: 'function',
    function: {
      name: 'scrape',
      description: 'Read one web page: its main content as markdown.',
      parameters: { type: 'object', properties: { url: { type: 'string', description: 'The page URL' } }, required: ['url'] },
    },
  },
  minCredits: () => COSTS.page,
  async run(args, ctx) {
    try {
      const url = await checkedUrl(args.url, ctx);
      const { doc, credits } = await scrapePage(ctx, url, undefined);
      const title = doc.metadata?.title ? `Title: ${doc.metadata.title}\n` : '';
      const text = `URL: ${doc.metadata?.url ?? url}\n${title}\n${doc.markdown ?? ''}`;
      return { text: clip(text), summary: `${String(doc.markdown ?? '').length} characters of markdown (HTTP ${doc.metadata?.statusCode})`, credits, ok: true };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return failed('scrape', e);
    }
  },
};

const extract: AgentTool = {
  def: {
    type: 'function',
    function: {
      name: 'extract',
      description: `Extract structured data (JSON, by the run's schema when it has one) from up to ${MAX_EXTRACT_URLS} pages.`,
      parameters: {
        type: 'object',
        properties: {
          urls: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: MAX_EXTRACT_URLS, description: 'Page URLs' },
          prompt: { type: 'string', description: 'What to extract (default: the task)' },
        },
        required: ['urls'],
      },
    },
  },
  // Per URL: a page plus what the structured-data format declares (its `credits`).
  minCredits: (args, request, services) => {
    const plugin = structuredDataFormat(services.formats);
    const perPage = COSTS.page + (plugin ? formatCredits([{ type: plugin.name, ...(request.schema ? { schema: request.schema } : {}) }], services.formats) : 0);
    return perPage * Math.max(1, Math.min(MAX_EXTRACT_URLS, Array.isArray(args.urls) ? args.urls.length : 1));
  },
  async run(args, ctx) {
    const urls = (Array.isArray(args.urls) ? args.urls : [args.urls]).slice(0, MAX_EXTRACT_URLS);
    const prompt = typeof args.prompt === 'string' && args.prompt.trim() ? args.prompt.trim().slice(0, 10_000) : ctx.request.prompt.slice(0, 10_000);
    const plugin = structuredDataFormat(ctx.services.formats);
    if (!plugin) return { text: 'No format answers structured data here.', summary: 'extract unavailable', credits: 0, ok: false };
    const format = { type: plugin.name, prompt, ...(ctx.request.schema ? { schema: ctx.request.schema } : {}) };
    const results = await Promise.all(urls.map(async (raw) => {
      try {
        const url = await checkedUrl(raw, ctx);
        const { doc, credits } = await scrapePage(ctx, url, [format]);
        return { url, json: doc[plugin.name] ?? null, credits, warning: doc.warning as string | undefined };
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        return { url: String(raw), error: TrawlError.wrap(e).message, credits: 0 };
      }
    }));
    const credits = results.reduce((s, r) => s + r.credits, 0);
    const good = results.filter((r) => !('error' in r) || r.error === undefined).length;
    const shown = results.map(({ credits: _c, ...r }) => r);
    return { text: clip(JSON.stringify(shown, null, 1)), summary: `${good} of ${results.length} pages extracted`, credits, ok: good > 0 };
  },
};

/** The tools of a run: all four, or without `search` under `strictConstrainToURLs`. */
export function toolsFor(request: AgentRequest): Map<string, AgentTool> {
  const list = request.strictConstrainToURLs ? [map, scrape, extract] : [search, map, scrape, extract];
  return new Map(list.map((t) => [t.def.function.name, t]));
}
