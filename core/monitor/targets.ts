/**
 * Monitor targets (compat.md §15): 1–50 of `scrape {urls}`, `crawl {url, crawlOptions}` and
 * `search {queries, maxResults?, includeDomains?, excludeDomains?, searchWindow?}`, each with optional
 * `scrapeOptions`. Every page of a check is scraped with the change tracking format added to its
 * formats (tagged with the monitor, so each monitor keeps its own page history), unless the target
 * asks for it itself. Targets are stored as sent (with an `id` each) and resolved again when a check runs.
 */
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { normalizeTargetUrl, resolveScrapeOptions } from '../pipeline/scrape-options.ts';
import { resolveCrawlerOptions, type CrawlerOptions } from '../crawl/options.ts';
import { defaultFormats, pageChangesFormat, type FormatPlugins } from '../scrape/formats.ts';
import type { ScrapeOptions } from '../scrape/options.ts';

export const MAX_TARGETS = 50;
/** URLs of one scrape target, queries of one search target. */
export const MAX_URLS_PER_TARGET = 1000;
export const MAX_QUERIES_PER_TARGET = 20;
const SEARCH_WINDOWS: Record<string, string> = { '5m': 'qdr:h', '15m': 'qdr:h', '1h': 'qdr:h', '6h': 'qdr:d', '24h': 'qdr:d', '7d': 'qdr:w' };

export type ResolvedTarget =
  | { id: string; type: 'scrape'; urls: { url: string; sourceUrl: string }[]; scrape: ScrapeOptions }
  | { id: string; type: 'crawl'; crawler: CrawlerOptions; scrape: ScrapeOptions }
  | { id: string; type: 'search'; queries: string[]; maxResults: number; includeDomains?: string[]; excludeDomains?: string[]; tbs?: string; scrape: ScrapeOptions };

const bad = (message: string) => new TrawlError('BAD_REQUEST', message);

/** `scrapeOptions` with the change tracking format added (tag `monitor:<id>` unless the target set one). */
function trackedScrapeOptions(raw: unknown, monitorId: string, plugins: FormatPlugins, surface: 'batch' | 'crawl', where: string): ScrapeOptions {
  const options = { ...((raw ?? {}) as Record<string, any>) };
  // The format that gives each page its change status (role `page-changes`; formats/ owns it).
  const change = pageChangesFormat(plugins);
  if (!change) return noZdr(wrap(() => resolveScrapeOptions(options, plugins, surface), where), where);
  const CHANGE_FORMAT = change.name;
  const formats = [...((options.formats as unknown[] | undefined) ?? defaultFormats(plugins))];
  const i = formats.findIndex((f) => f === CHANGE_FORMAT || (typeof f === 'object' && f !== null && (f as { type?: unknown }).type === CHANGE_FORMAT));
  const given = i >= 0 && typeof formats[i] === 'object' ? (formats[i] as Record<string, unknown>) : {};
  // A monitor's own tracking shows the git diff of changed pages; a target's own spec is kept as sent.
  const spec = i >= 0 ? { ...given, type: CHANGE_FORMAT, tag: given.tag ?? monitorTag(monitorId) } : { type: CHANGE_FORMAT, modes: ['git-diff'], tag: monitorTag(monitorId) };
  if (i >= 0) formats[i] = spec;
  else formats.push(spec);
  // The formats change tracking is computed from (its `withFormats`), added when the target left them out.
  for (const needed of change.withFormats ?? []) {
    if (!formats.some((f) => f === needed || (f as { type?: unknown })?.type === needed)) formats.push(needed);
  }
  return noZdr(wrap(() => resolveScrapeOptions({ ...options, formats }, plugins, surface), where), where);
}

/** The page history a monitor's checks use unless a target names its own tag. */
export const monitorTag = (monitorId: string) => `monitor:${monitorId}`;

/** The change tracking history (`tag`) of a target's pages: undefined when it tracks no changes. */
export function changeTagOf(t: ResolvedTarget, plugins: FormatPlugins): string | null | undefined {
  const name = pageChangesFormat(plugins)?.name;
  const spec = t.scrape.formats.find((f) => f.type === name) as { tag?: string | null } | undefined;
  return spec ? (spec.tag ?? null) : undefined;
}

/**
 * A target's resolved scrape options, refusing zero data retention: a check compares each page with
 * the version the previous check kept, which zero data retention forbids keeping.
 */
function noZdr(options: ScrapeOptions, where: string): ScrapeOptions {
  if (options.zeroDataRetention) throw bad(`${where}.zeroDataRetention: monitors keep each page's last version to compare the next check with, which zero data retention forbids; remove it`);
  return options;
}

/** Runs `fn`, prefixing a BAD_REQUEST message with where in the body it applies. */
function wrap<T>(fn: () => T, where: string): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TrawlError && e.status === 400) throw new TrawlError(e.code, `${where}: ${e.message}`, { details: e.details });
    throw e;
  }
}

function stringList(v: unknown, name: string, max: number): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.some((s) => typeof s !== 'string' || !s.trim())) throw bad(`${name} must be a non-empty array of strings`);
  if (v.length > max) throw bad(`${name} has ${v.length} entries; at most ${max} are allowed`);
  return v as string[];
}

/**
 * Checks targets and gives each an `id` (kept when sent).
 * @returns the targets to store (as sent, with ids) and their resolved form
 * @throws TrawlError BAD_REQUEST for 0 or more than 50 targets, an unknown type, a bad URL, query or option
 */
export function resolveTargets(raw: unknown, monitorId: string, plugins: FormatPlugins): { stored: Record<string, any>[]; resolved: ResolvedTarget[] } {
  if (!Array.isArray(raw) || raw.length === 0) throw bad('targets must hold at least one target: { "type": "scrape", "urls": ["https://example.com"] }');
  if (raw.length > MAX_TARGETS) throw bad(`targets has ${raw.length} entries; a monitor has at most ${MAX_TARGETS} targets`);
  const stored: Record<string, any>[] = [];
  const resolved: ResolvedTarget[] = [];
  const ids = new Set<string>();
  raw.forEach((t: any, i) => {
    const where = `targets[${i}]`;
    if (!t || typeof t !== 'object') throw bad(`${where} must be an object`);
    const id = t.id === undefined ? newId() : String(t.id);
    if (!id || ids.has(id)) throw bad(`${where}.id "${id}" is used twice; target ids must be unique`);
    ids.add(id);
    if (t.type === 'scrape') {
      const urls = stringList(t.urls, `${where}.urls`, MAX_URLS_PER_TARGET).map((u) => ({ url: wrap(() => normalizeTargetUrl(u), `${where}.urls`), sourceUrl: u }));
      resolved.push({ id, type: 'scrape', urls, scrape: trackedScrapeOptions(t.scrapeOptions, monitorId, plugins, 'batch', `${where}.scrapeOptions`) });
    } else if (t.type === 'crawl') {
      if (typeof t.url !== 'string' || !t.url) throw bad(`${where}.url is required for a crawl target`);
      if (t.crawlOptions?.prompt !== undefined) throw bad(`${where}.crawlOptions.prompt is not supported in monitors (it would call a model on every check); send the crawl options themselves`);
      const crawler = wrap(() => resolveCrawlerOptions({ ...(t.crawlOptions ?? {}), url: t.url }), `${where}.crawlOptions`);
      resolved.push({ id, type: 'crawl', crawler, scrape: trackedScrapeOptions(t.scrapeOptions, monitorId, plugins, 'crawl', `${where}.scrapeOptions`) });
    } else if (t.type === 'search') {
      const queries = stringList(t.queries, `${where}.queries`, MAX_QUERIES_PER_TARGET);
      const maxResults = t.maxResults ?? 5;
      if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 100) throw bad(`${where}.maxResults must be an integer from 1 to 100`);
      if (t.searchWindow !== undefined && !SEARCH_WINDOWS[t.searchWindow]) throw bad(`${where}.searchWindow must be one of ${Object.keys(SEARCH_WINDOWS).join(', ')}`);
      const includeDomains = t.includeDomains === undefined ? undefined : stringList(t.includeDomains, `${where}.includeDomains`, 100);
      const excludeDomains = t.excludeDomains === undefined ? undefined : stringList(t.excludeDomains, `${where}.excludeDomains`, 100);
      resolved.push({
        id, type: 'search', queries, maxResults, includeDomains, excludeDomains, tbs: t.searchWindow ? SEARCH_WINDOWS[t.searchWindow] : undefined,
        scrape: trackedScrapeOptions(t.scrapeOptions, monitorId, plugins, 'batch', `${where}.scrapeOptions`),
      });
    } else {
      throw bad(`${where}.type must be "scrape", "crawl" or "search"`);
    }
    stored.push({ ...t, id });
  });
  return { stored, resolved };
}

/** Every URL a check of these targets fetches first (scrape URLs, crawl start URLs), for the SSRF check. */
export function targetUrls(targets: ResolvedTarget[]): string[] {
  return targets.flatMap((t) => (t.type === 'scrape' ? t.urls.map((u) => u.url) : t.type === 'crawl' ? [t.crawler.url] : []));
}

/** Formats of every target (key restrictions check them). */
export function targetFormats(targets: ResolvedTarget[]) {
  return targets.flatMap((t) => t.scrape.formats);
}
