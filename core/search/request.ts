/**
 * Resolves a search request: the body as the HTTP model shaped it in, `ResolvedSearch` out, with the
 * defaults and cross-field rules of interface.md "Search request body" / "Limits and rules" and
 * compat.md §11.1: limit 10 (max 100) per source, sources default web, developer alone, include vs
 * exclude domains, tbs syntax, the research switch date, enterprise zdr/anon, and the query checks
 * (empty, longer than MAX_QUERY_CHARS, operators only). Every refusal is a 400 saying what to change.
 */
import { TrawlError } from '../errors.ts';
import type { FormatPlugin } from '../plugin.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { resolveScrapeOptions } from '../pipeline/scrape-options.ts';
import { categoryOperators, type Category } from './categories.ts';
import { hasSearchTerms, parseDomain, parseQuery, siteGroup } from './operators.ts';
import { parseTbs, type TimeFilter } from './tbs.ts';
import { auditMetadataOf } from '../audit/activity.ts';

/** Longest query accepted, characters (Google's own limit is about 2048). */
export const MAX_QUERY_CHARS = 2000;
export const DEFAULT_LIMIT = 10;
export const DEFAULT_TIMEOUT_MS = 60_000;

export type SourceName = 'web' | 'news' | 'images';

export interface ResolvedSource {
  source: SourceName;
  /** Web only (interface.md Rules 2). */
  tbs?: TimeFilter;
  tbsText?: string;
  location?: string;
}

export interface ResolvedSearch {
  /** The query as the user wrote it, trimmed. */
  query: string;
  /** The query sent to providers: the user's query plus domain and category operators. */
  providerQuery: string;
  sources: ResolvedSource[];
  /** Per source. */
  limit: number;
  /** Categories narrowing web results (research only before the switch date). */
  categories: Category[];
  /** Research category after the switch: answer `data.research` from the paper index. */
  researchPapers: boolean;
  /** Whether the `web` group is in the response (asked for, or implied by the default). */
  webGroup: boolean;
  location?: string;
  country: string;
  lang?: string;
  safe?: boolean;
  highlights: boolean;
  timeoutMs: number;
  enterprise: ('zdr' | 'anon')[];
  ignoreInvalidURLs: boolean;
  /** Scrape options for each result; undefined when not scraping (`scrapeOptions` absent or `formats: []`). */
  scrape?: ScrapeOptions;
  warnings: string[];
  /** `auditMetadata` (compat.md §2.2), top level or in `scrapeOptions`: shown in the team's activity. */
  auditMetadata?: { username: string };
}

function bad(message: string): TrawlError {
  return new TrawlError('BAD_REQUEST', message);
}

const nameOf = (v: unknown): string => (typeof v === 'string' ? v : String((v as { type?: unknown })?.type ?? ''));

/** True when `today` (UTC, YYYY-MM-DD) is on or after the research switch date (interface.md Versioning 3). */
export function researchSwitched(switchDate: string, now = new Date()): boolean {
  return now.toISOString().slice(0, 10) >= switchDate;
}

/** Cleans a list of bare domains; a URL is reduced to its host (and path). */
function domains(list: unknown[] | undefined, field: string): string[] {
  const out: string[] = [];
  for (const d of list ?? []) {
    if (typeof d !== 'string' || d.trim() === '') continue;
    const p = parseDomain(d);
    if (!p) throw bad(`${field} must list bare domains such as "example.com"; "${String(d).slice(0, 100)}" is not one.`);
    out.push(p.host + p.path);
  }
  return [...new Set(out)];
}

/**
 * Validates and resolves a search body.
 * @param body    the request body (already shape-checked by the HTTP model)
 * @param formats registered format plugins (scrapeOptions.formats)
 * @param opts    `researchSwitchDate` (YYYY-MM-DD) and the clock
 * @throws TrawlError BAD_REQUEST with a message saying what to change
 */
export function resolveSearchRequest(
  body: Record<string, any>,
  formats: Map<string, FormatPlugin>,
  opts: { researchSwitchDate: string; now?: Date },
): ResolvedSearch {
  const query = typeof body.query === 'string' ? body.query.trim() : '';
  if (!query) throw bad('query must not be empty: send the words to search for, e.g. { "query": "tide tables" }.');
  if (query.length > MAX_QUERY_CHARS) {
    throw bad(`query is too long (${query.length} characters); at most ${MAX_QUERY_CHARS} characters are allowed.`);
  }
  if (!hasSearchTerms(parseQuery(query))) {
    throw bad(`query "${query.slice(0, 100)}" has only operators (site:, filetype:, -word ...); add the words to search for.`);
  }
  const include = domains(body.includeDomains, 'includeDomains');
  const exclude = domains(body.excludeDomains, 'excludeDomains');
  if (include.length && exclude.length) {
    throw bad('includeDomains and excludeDomains cannot be used in the same request; send only one of them.');
  }

  const categories = [...new Set((body.categories ?? []).map(nameOf))] as Category[];
  if (categories.includes('developer') && categories.length > 1) {
    throw bad('The developer category cannot be combined with other categories; send categories: ["developer"] alone.');
  }
  const switched = researchSwitched(opts.researchSwitchDate, opts.now);
  const researchPapers = switched && categories.includes('research');
  const webCategories = researchPapers ? categories.filter((c) => c !== 'research') : categories;
  const warnings: string[] = [];
  if (categories.includes('research') && !switched) {
    warnings.push(
      `The research category changes on ${opts.researchSwitchDate}: it will search the research paper index and return paper records in data.research instead of narrowing web results to academic sites.`,
    );
  }

  const topTbs = typeof body.tbs === 'string' && body.tbs.trim() ? body.tbs.trim() : undefined;
  const sourceItems = (body.sources ?? []) as unknown[];
  const sources: ResolvedSource[] = [];
  for (const item of sourceItems) {
    const name = nameOf(item);
    if (name === 'alexandria' || sources.some((s) => s.source === name)) continue; // compat.md §1.2: ignored
    const obj = typeof item === 'object' && item ? (item as { tbs?: string; location?: string }) : {};
    const tbsText = name === 'web' ? (obj.tbs?.trim() || topTbs) : undefined;
    sources.push({ source: name as SourceName, tbsText, tbs: parseTbs(tbsText), location: obj.location ?? body.location });
  }
  const explicitWeb = sources.some((s) => s.source === 'web');
  // Default web, except a research-only request after the switch: its results are data.research.
  if (sources.length === 0 && !(researchPapers && webCategories.length === 0)) {
    sources.push({ source: 'web', tbsText: topTbs, tbs: parseTbs(topTbs), location: body.location });
  }
  if (topTbs && !sources.some((s) => s.source === 'web')) parseTbs(topTbs); // still validate it

  const country = typeof body.country === 'string' && body.country.trim() ? body.country.trim().toUpperCase() : 'US';
  if (!/^[A-Z]{2}$/.test(country)) throw bad(`country must be a two-letter ISO 3166-1 code such as "US" or "DE", got "${String(body.country).slice(0, 20)}".`);
  const lang = typeof body.lang === 'string' && body.lang.trim() ? body.lang.trim() : undefined;
  if (lang && !/^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,8})?$/.test(lang)) throw bad(`lang must be a language code such as "en" or "pt-BR", got "${lang.slice(0, 20)}".`);

  const enterprise = [...new Set(((body.enterprise ?? []) as string[]).filter((e) => e === 'zdr' || e === 'anon'))] as ('zdr' | 'anon')[];
  let scrape: ScrapeOptions | undefined;
  if (body.scrapeOptions && typeof body.scrapeOptions === 'object') {
    const raw = { ...body.scrapeOptions } as Record<string, unknown>;
    if (enterprise.includes('zdr')) raw.zeroDataRetention = true; // interface.md Rules 3
    const resolved = resolveScrapeOptions(raw, formats, 'search');
    if (resolved.formats.length > 0) scrape = resolved;
  }

  const ops = [
    include.length ? siteGroup(include) : '',
    exclude.map((d) => `-site:${d}`).join(' '),
    categoryOperators(webCategories),
  ].filter(Boolean);
  return {
    auditMetadata: auditMetadataOf(body) ?? auditMetadataOf((body as { scrapeOptions?: unknown }).scrapeOptions),
    query,
    providerQuery: [query, ...ops].join(' '),
    sources,
    limit: body.limit ?? DEFAULT_LIMIT,
    categories: webCategories,
    researchPapers,
    webGroup: sources.some((s) => s.source === 'web') || explicitWeb,
    location: typeof body.location === 'string' && body.location.trim() ? body.location.trim() : undefined,
    country,
    lang,
    safe: body.safe,
    highlights: body.highlights !== false,
    timeoutMs: body.timeout ?? DEFAULT_TIMEOUT_MS,
    enterprise,
    ignoreInvalidURLs: body.ignoreInvalidURLs === true,
    scrape,
    warnings,
  };
}
