/**
 * What a worker does with one extract (compat.md §12; issue 19 scope 1): adds web search results
 * when asked (`enableWebSearch`, or a prompt without `urls`: the configured search providers, the
 * local index included), scrapes every page with the structured-data format (formats/json: the
 * model when one is configured, else the deterministic stated-facts path) a few at a time, merges
 * the answers by the schema (core/extract/merge.ts), and ends the job once with its data, sources,
 * tokens and credits. Each page is accounted like a crawl page (a team concurrency slot; its
 * credits are the scrape's: 1 per page + 4 for the structured data); the sum is charged once per
 * extract (ledger kind `extract`, with the model tokens of every call made for it). A page that
 * fails is skipped with a warning; an extract whose every page failed fails with the first error.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { runScrape } from '../pipeline/scrape.ts';
import { scrapeDepsFor } from '../jobs/scrape.ts';
import { startScrapeAccounting } from '../credits/scrape-accounting.ts';
import { chargeCredits } from '../credits/ledger.ts';
import { structuredDataFormat } from '../scrape/formats.ts';
import { resolveSearchRequest } from '../search/request.ts';
import { runSearch } from '../search/run.ts';
import { kickJob } from '../webhooks/deliver.ts';
import { webhookDeps } from '../crawl/webhook-deps.ts';
import { scrapeLogger } from '../log.ts';
import { deadline } from '../net/deadline.ts';
import { MAX_EXTRACT_URLS, MAX_SEARCH_PAGES, type ExtractRequest } from './request.ts';
import { mergePageAnswers, type PageAnswer } from './merge.ts';
import { endExtractJob, tokensOf, type ExtractResult } from './store.ts';

/** Pages of one extract scraped at once. */
const PAGE_CONCURRENCY = 4;

/** Data of a queued extract (the queue payload; the row holds no URL or prompt under zero data retention). */
export interface ExtractJobData {
  extractId: string;
  teamId: string;
  keyId?: string;
  /** The resolved request. */
  request: ExtractRequest;
  /** Pages from `urls`, globs expanded (core/extract/urls.ts). */
  urls: string[];
  /** When the extract's `timeout` ends (creation + timeout), epoch ms. */
  deadlineAt: number;
}

/** Search results for the prompt, and the credits the search charged (by itself, as a search). */
async function searchPages(services: Services, data: ExtractJobData, signal: AbortSignal, warnings: string[]): Promise<{ urls: string[]; credits: number }> {
  const query = (data.request.prompt ?? '').slice(0, 500);
  // Zero data retention: the search neither logs nor stores the query (search `enterprise: ["zdr"]`).
  const enterprise = data.request.scrape.zeroDataRetention ? { enterprise: ['zdr'] } : {};
  try {
    const resolved = resolveSearchRequest({ query, limit: MAX_SEARCH_PAGES, ...enterprise }, services.formats, { researchSwitchDate: services.config.researchSwitchDate });
    const found = await runSearch(services, { teamId: data.teamId, keyId: data.keyId }, resolved, signal);
    return { urls: (found.data.web ?? []).map((r) => r.url).filter((u): u is string => typeof u === 'string'), credits: found.creditsUsed };
  } catch (e) {
    if (signal.aborted) throw e;
    warnings.push(`The web search for the prompt failed: ${TrawlError.wrap(e).message}`);
    return { urls: [], credits: 0 };
  }
}

interface PageOutcome extends PageAnswer {
  credits: number;
}

async function scrapePage(services: Services, data: ExtractJobData, url: string, field: string, signal: AbortSignal): Promise<PageOutcome> {
  const account = await startScrapeAccounting(
    services,
    { scrapeId: newId(), url, sourceURL: url, options: data.request.scrape, teamId: data.teamId, keyId: data.keyId, jobId: data.extractId },
    signal,
  );
  try {
    const deps = scrapeDepsFor(services, data.teamId, account.log, { apiKeyId: data.keyId, jobId: data.extractId });
    const doc = await runScrape(account.request, deps, signal);
    account.finish(doc);
    return { url, value: doc[field] ?? null, credits: Number(doc.metadata.creditsUsed) || 0 };
  } finally {
    await account.release();
  }
}

/** Runs `work` over `items`, `limit` at a time, in order of the results. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const out: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]).then((value) => ({ status: 'fulfilled', value }) as const, (reason) => ({ status: 'rejected', reason }) as const);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/**
 * Runs one extract and ends its job (completed, or failed with the error; a cancelled job stays
 * cancelled). Never throws for the extract's own failures, so the queue does not run it again; an
 * abort by the queue (cancel, shutdown) is thrown, leaving the row to the cancel or the next run.
 * @param signal aborted on cancel or on the driver's shutdown; the extract's own deadline
 *        (`deadlineAt`) is added here and ends it as EXTRACT_TIMEOUT
 */
export async function runExtract(services: Services, data: ExtractJobData, parent: AbortSignal): Promise<void> {
  const timer = deadline(Math.max(1, data.deadlineAt - Date.now()), parent);
  try {
    await runUntilDeadline(services, data, timer.signal);
  } finally {
    timer.dispose();
  }
}

async function runUntilDeadline(services: Services, data: ExtractJobData, signal: AbortSignal): Promise<void> {
  const zdr = data.request.scrape.zeroDataRetention;
  const log = scrapeLogger(services.log, { extractId: data.extractId, teamId: data.teamId }, zdr);
  try {
    const result = await extractData(services, data, signal);
    // creditsUsed shows the search's credits too; the search charged them itself.
    const job = await endExtractJob(services.db, data.extractId, { status: 'completed', result: result.result, credits: result.pageCredits + result.searchCredits });
    if (job) {
      await chargeCredits(services.db, {
        teamId: data.teamId, apiKeyId: data.keyId, jobId: data.extractId, kind: 'extract', refId: data.extractId, credits: result.pageCredits, tokens: result.result.tokensUsed,
      }).catch((err) => log.error({ err }, 'could not record the credits of an extract'));
      if (job.options.webhook) kickJob(webhookDeps(services), data.extractId);
    }
  } catch (e) {
    const timedOut = signal.aborted && signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError';
    // Aborted by the queue: a cancel (the row is cancelled already) or this worker shutting down
    // (the queue runs the job again later): the row is left as it is.
    if (signal.aborted && !timedOut) throw e;
    const error = timedOut
      ? new TrawlError('EXTRACT_TIMEOUT', `The extract did not finish within its timeout of ${data.request.timeoutMs} ms. Raise "timeout" (at most 1800000) or send fewer URLs.`)
      : TrawlError.wrap(e);
    log.warn({ err: error }, 'extract failed');
    const job = await endExtractJob(services.db, data.extractId, { status: 'failed', error: error.toJSON() });
    if (job?.options.webhook) kickJob(webhookDeps(services), data.extractId);
  }
}

async function extractData(services: Services, data: ExtractJobData, signal: AbortSignal): Promise<{ result: ExtractResult; pageCredits: number; searchCredits: number }> {
  const warnings = [...data.request.warnings];
  const plugin = structuredDataFormat(services.formats);
  if (!plugin) throw new TrawlError('BACKEND_UNAVAILABLE', 'No format plugin with the structured-data role is registered.');
  const field = plugin.fields?.[0] ?? plugin.name;
  const urls = [...data.urls];
  let searchCredits = 0;
  if (data.request.enableWebSearch) {
    const found = await searchPages(services, data, signal, warnings);
    searchCredits = found.credits;
    for (const u of found.urls) if (!urls.includes(u) && urls.length < MAX_EXTRACT_URLS) urls.push(u);
  }
  if (urls.length === 0) {
    throw new TrawlError('BAD_REQUEST', 'No pages to read: no urls were given and the web search for the prompt found none. Send urls, or configure a search provider (TRAWL_SEARCH_PROVIDERS).');
  }
  const settled = await pool(urls, PAGE_CONCURRENCY, (url) => scrapePage(services, data, url, field, signal));
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new TrawlError('SCRAPE_JOB_CANCELLED', 'The extract was cancelled.');
  const pages: PageOutcome[] = [];
  const failures: { url: string; error: TrawlError }[] = [];
  settled.forEach((s, i) => (s.status === 'fulfilled' ? pages.push(s.value) : failures.push({ url: urls[i], error: TrawlError.wrap(s.reason) })));
  if (pages.length === 0) throw failures[0].error;
  if (failures.length > 0) {
    const list = failures.slice(0, 5).map((f) => `${data.request.scrape.zeroDataRetention ? 'a page' : f.url}: ${f.error.message}`);
    warnings.push(`${failures.length} of ${urls.length} pages could not be read and were left out (${list.join('; ')}${failures.length > 5 ? '; …' : ''}).`);
  }
  if (!services.config.llm) {
    warnings.push('No language model is configured (set OPENAI_BASE_URL or OLLAMA_BASE_URL): the data was filled only from what the pages state (structured data, meta tags, tables, labelled fields); fields they do not state are null.');
  }
  const merged = mergePageAnswers(pages);
  const tokensUsed = await tokensOf(services.db, data.extractId);
  const pageCredits = pages.reduce((sum, p) => sum + p.credits, 0);
  const result: ExtractResult = {
    data: merged.value,
    ...(data.request.showSources ? { sources: merged.sources } : {}),
    ...(warnings.length ? { warning: warnings.join(' ') } : {}),
    tokensUsed,
  };
  return { result, pageCredits, searchCredits };
}
