/**
 * The scrape pipeline: one URL in, one Document out (compat.md §3). Steps: pick the engine by the
 * features the request needs, fetch (retrying a JavaScript shell in the browser), pick the parser by
 * content, parse, then run the requested formats in dependency order and assemble the document with
 * its metadata. No HTTP or queue code here: the worker and tests call `runScrape` directly.
 */
import { deadline } from '../net/deadline.ts';
import type { ResolvedConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Registry } from '../registry.ts';
import type { BlobStore } from '../blobs.ts';
import type { EngineRequest, EngineResponse, FormatInput, FormatPlugin, LanguageModel, ParsedDocument, PluginContext, ProfileHandle } from '../plugin.ts';
import type { PageVersionStore } from '../page-versions/types.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import type { Document, ScrapeRequest } from '../scrape/document.ts';
import { TrawlError } from '../errors.ts';
import { requiredFeatures, selectEngine, selectParser } from './select.ts';
import { knownShellHost, needsJavaScript, noteFetchedPage } from './needs-js.ts';
import { proxyAttempts, proxyAnswerError, routeFailed, worthRetrying, type FetchAttempt } from './proxy.ts';
import { cacheOnly, cacheOnlyMiss, type ScrapeCache } from '../cache/index.ts';
import type { ProfileOpener } from '../profiles/index.ts';
import { cleanDom } from '../../parsers/html/clean.ts';
import { acceptLanguage, locationEmulation } from '../scrape/location.ts';
import type { ContentThreads } from './content-threads.ts';
import { fieldContents, formatCaptures, holdsBlobs, unparsedFallback } from '../scrape/formats.ts';
import { serializeHtml, type AnyNode } from '../html/dom.ts';
import { redactDocument } from '../privacy/document.ts';
import { assertThreatAllowed } from '../threat/check.ts';

export type { Document, ScrapeRequest } from '../scrape/document.ts';
import { observeEngineFetch } from '../metrics/index.ts';

export interface ScrapeDeps {
  config: ResolvedConfig;
  log: Logger;
  registry: Registry;
  blobs: BlobStore;
  /** The scrape cache (core/cache); without it nothing is cached and cache-only requests miss. */
  cache?: ScrapeCache;
  /** Opens named profiles for the caller's team (core/profiles); without it `profile` is ignored. */
  profiles?: ProfileOpener;
  /** Worker threads that build documents of web pages (content-threads.ts); without, built here. */
  content?: ContentThreads;
  /** The language model bound to the job's team (core/llm/service.ts `modelFor`); becomes `ctx.model`. */
  model?: LanguageModel;
  /** The kept page versions of the job's team (core/page-versions); becomes `ctx.pageVersions`. */
  pageVersions?: PageVersionStore;
}

/** A profile lock outlives the scrape's timeout by this much, ms (a crashed worker frees it then). */
const PROFILE_LEASE_GRACE_MS = 60_000;

const formatMaps = new WeakMap<readonly FormatPlugin[], Map<string, FormatPlugin>>();

/**
 * Format plugins by name (used for validation and ordering): one map per registry, shared by every
 * caller (a scrape asks several times), so it must not be modified.
 */
export async function formatPlugins(registry: Registry): Promise<Map<string, FormatPlugin>> {
  const list = await registry.all('format');
  let map = formatMaps.get(list);
  if (!map) formatMaps.set(list, (map = new Map(list.map((f) => [f.name, f]))));
  return map;
}

/** Orders requested formats so that each runs after the formats it `needs` (which run even if not requested). */
function formatOrder(requested: string[], plugins: Map<string, FormatPlugin>): string[] {
  const out: string[] = [];
  const visit = (name: string, stack: string[]) => {
    if (out.includes(name)) return;
    if (stack.includes(name)) throw new TrawlError('UNKNOWN_ERROR', `[pipeline] format dependency cycle: ${[...stack, name].join(' -> ')}`);
    for (const dep of plugins.get(name)?.needs ?? []) visit(dep, [...stack, name]);
    out.push(name);
  };
  for (const name of requested) visit(name, []);
  return out;
}

/**
 * Fetches with the engine the request needs, along the proxy plan of core/pipeline/proxy.ts: a
 * blocked answer or a failed route moves on to the next attempt (`proxy: auto`).
 */
async function fetchWithEngine(req: ScrapeRequest, deps: ScrapeDeps, ctx: PluginContext, profile?: ProfileHandle): Promise<EngineResponse> {
  const attempts = await proxyAttempts(req.options, deps.registry, deps.config);
  let previous: EngineResponse | undefined;
  for (const [i, attempt] of attempts.entries()) {
    const last = i === attempts.length - 1;
    try {
      const response = await fetchOnce(req, deps, ctx, attempt, profile);
      const refused = proxyAnswerError(response, attempt.route);
      if (refused) throw refused;
      const next = attempts[i + 1];
      const sameAgain = next && next.route === attempt.route && (await usedBrowser(deps, response));
      if (last || sameAgain || !worthRetrying(response, attempt.route) || ctx.signal.aborted) return response;
      ctx.log.info({ status: response.statusCode, route: attempt.route?.name ?? 'direct' }, 'the answer looks blocked; trying the next proxy route');
      previous = response;
    } catch (error) {
      const e = TrawlError.wrap(error);
      const next = attempts[i + 1];
      if (last || ctx.signal.aborted || next?.after !== 'block-or-failure' || !routeFailed(e)) {
        if (previous) return previous;
        throw e;
      }
      ctx.log.info({ code: e.code, route: attempt.route?.name ?? 'direct' }, 'the proxy route failed; trying the next one');
    }
  }
  throw new TrawlError('SCRAPE_ALL_ENGINES_FAILED', `[pipeline] no fetch attempt answered for ${req.sourceURL}`);
}

/** Whether the engine that answered already runs JavaScript (a retry in the browser would change nothing). */
async function usedBrowser(deps: ScrapeDeps, response: EngineResponse): Promise<boolean> {
  return (await deps.registry.all('engine')).some((e) => e.name === response.engine && e.features.includes('js'));
}

/** One fetch on one route: the cheapest engine covering the request, a JavaScript shell retried in the browser. */
async function fetchOnce(req: ScrapeRequest, deps: ScrapeDeps, ctx: PluginContext, attempt: FetchAttempt, profile?: ProfileHandle): Promise<EngineResponse> {
  const { registry, config } = deps;
  const engines = await registry.all('engine');
  const formats = await formatPlugins(registry);
  const need = requiredFeatures(req.options, formats);
  // A host that lately served JavaScript shells to the plain fetch goes to the browser at once.
  if ((attempt.preferBrowser || knownShellHost(req.url)) && engines.some((e) => e.features.includes('js'))) need.add('js');
  const engine = selectEngine(engines, need);
  const headers: Record<string, string> = { ...(req.options.headers ?? {}) };
  // `location`: its languages, else the country's default language, as Accept-Language (interface.md).
  const languages = locationEmulation(req.options.location).languages;
  if (languages?.length && !Object.keys(headers).some((h) => h.toLowerCase() === 'accept-language')) headers['accept-language'] = acceptLanguage(languages);
  const remaining = () => Math.max(1, ctx.deadline - Date.now());
  const engineRequest: EngineRequest = {
    url: req.url, headers, options: req.options, timeoutMs: remaining(), targets: config.targets, proxy: attempt.route, profile,
    captures: formatCaptures(req.options.formats, formats),
  };
  const log = ctx.log.child({ engine: engine.name });
  const response = await observeEngineFetch(engine.name, engine.fetch(engineRequest, { ...ctx, log }));
  // A client-rendered shell fetched without JavaScript: render it in a browser when there is one.
  const shell = !engine.features.includes('js') && response.contentType.includes('html') && response.text !== undefined && needsJavaScript(response.text);
  if (!engine.features.includes('js') && response.statusCode >= 200 && response.statusCode < 300) noteFetchedPage(req.url, shell);
  if (shell) {
    const js = engines.filter((e) => e.features.includes('js')).sort((a, b) => a.cost - b.cost)[0];
    if (js) {
      log.debug({ url: req.url }, 'page needs JavaScript; retrying in the browser');
      return observeEngineFetch(js.name, js.fetch({ ...engineRequest, timeoutMs: remaining() }, { ...ctx, log: ctx.log.child({ engine: js.name }) }));
    }
  }
  return response;
}

/** Whether a content thread can build this document: a web page asking only for pure formats. */
async function threadable(response: EngineResponse, req: ScrapeRequest, registry: Registry, ctx: PluginContext, filename?: string): Promise<boolean> {
  // onlyCleanContent with a model calls it from the formats: content threads have no model.
  if (req.options.onlyCleanContent && ctx.model) return false;
  const plugins = await formatPlugins(registry);
  if (!req.options.formats.every((f) => plugins.get(f.type)?.pure)) return false;
  const parser = selectParser(await registry.all('parser'), { bytes: response.body, contentType: response.contentType, url: response.url, filename });
  return parser?.name === 'html';
}

async function parse(response: EngineResponse, req: ScrapeRequest, deps: Pick<ScrapeDeps, 'registry'>, ctx: PluginContext, filename?: string): Promise<ParsedDocument> {
  const parsers = await deps.registry.all('parser');
  const input = { bytes: response.body, contentType: response.contentType, url: response.url, text: response.text, filename };
  const parser = selectParser(parsers, input);
  // Formats that read only the response (raw bytes, media) need no parser: content none reads is
  // fine, and a file (a PDF) is not parsed (nor billed per page) for them. Pages keep their metadata.
  if ((!parser || !response.contentType.includes('html')) && (await formatsNeedNoParser(req, deps.registry))) return { metadata: {} };
  if (!parser) {
    throw new TrawlError('SCRAPE_UNSUPPORTED_FILE_ERROR', `Trawl cannot read content of type ${response.contentType} from ${response.url}.`);
  }
  const requested = req.options.parsers.find((p) => p.type === parser.name);
  if (parser.optIn && !requested) {
    // interface.md `parsers`: with the parser left out (`parsers: []` for a PDF) the file comes back
    // base64-encoded at 1 flat credit. As in the reference API, the base64 text is the document's
    // markdown (and every format declaring `unparsed: 'shows'`), the fields every client reads; with
    // none of them requested, the `unparsed: 'fallback'` format carries it. Nothing is parsed, so
    // there is no `numPages`.
    const rawBase64 = Buffer.from(response.body).toString('base64');
    return { metadata: {}, markdown: rawBase64, rawBase64 };
  }
  return parser.parse(input, requested ?? { type: parser.name }, { ...ctx, log: ctx.log.child({ plugin: parser.name }) });
}

/** Whether every requested format reads only the response (`needsParser: false`), so unreadable content is fine. */
async function formatsNeedNoParser(req: ScrapeRequest, registry: Registry): Promise<boolean> {
  const plugins = await formatPlugins(registry);
  return req.options.formats.length > 0 && req.options.formats.every((f) => plugins.get(f.type)?.needsParser === false);
}

/**
 * Scrapes one URL: from the cache when a fresh enough copy answers the request (core/cache), else
 * fresh (with the request's profile opened for the scrape, core/profiles), filing the result in the
 * cache when the request allows it.
 * @param req     what to scrape, with resolved options
 * @param deps    config, logger, registry, blob store, and optionally the cache and profiles
 * @param signal  aborted on cancel; the scrape also stops at `options.timeout` ms
 * @returns the Document (not yet serialized)
 * @throws TrawlError from engines, parsers and formats (SCRAPE_TIMEOUT on the deadline);
 *         SCRAPE_NO_CACHED_DATA / SCRAPE_LOCKDOWN_CACHE_MISS (404) for cache-only misses;
 *         CONFLICT (409) when another saving session holds the profile
 */
export async function runScrape(req: ScrapeRequest, deps: ScrapeDeps, signal?: AbortSignal): Promise<Document> {
  const cached = deps.cache ? await deps.cache.lookup(req) : undefined;
  if (cached) return cached;
  if (!deps.cache && cacheOnly(req.options)) throw cacheOnlyMiss(req.options);
  const profile =
    req.options.profile && deps.profiles
      ? await deps.profiles(req.options.profile, req.scrapeId, req.options.timeout + PROFILE_LEASE_GRACE_MS)
      : undefined;
  try {
    const doc = await scrapeFresh(req, deps, signal, profile?.handle);
    if (deps.cache) await deps.cache.store(req, doc, { holdsBlobs: holdsBlobs(req.options.formats, await formatPlugins(deps.registry)) });
    return doc;
  } finally {
    await profile?.release();
  }
}

async function scrapeFresh(req: ScrapeRequest, deps: ScrapeDeps, signal: AbortSignal | undefined, profile: ProfileHandle | undefined): Promise<Document> {
  const run = runContext(req, deps, signal);
  try {
    const response = await run.guard(fetchWithEngine(req, deps, run.ctx, profile));
    assertThreatAllowed(response.url, req.options.threatProtection, { contentType: response.contentType });
    return redactDocument(await buildDocument(response, req, deps, run), req.options.redactPII, fieldContents(await formatPlugins(deps.registry)));
  } finally {
    run.end();
  }
}

/** The plugin context of one scrape (or parse) and `guard`, which fails a step at the deadline or on cancel. */
export interface RunContext {
  ctx: PluginContext;
  /**
   * Races a step against the deadline (SCRAPE_TIMEOUT) and the caller's signal (SCRAPE_JOB_CANCELLED).
   * Its abort listener goes when the step settles, so a finished step's result is not kept alive by
   * the signal.
   */
  guard<T>(p: Promise<T>): Promise<T>;
  /** Epoch ms the run started. */
  started: number;
  /**
   * Ends the run: stops the deadline timer, so nothing of the run stays reachable from it until the
   * deadline (core/net/deadline.ts). Call it when the run is over, in a `finally`; calling it again
   * does nothing.
   */
  end(): void;
}

/**
 * Starts the clock of one scrape or parse: the deadline is `options.timeout` ms from now.
 * @param what names the work in the timeout message (default `Scrape of <sourceURL>`)
 */
export function runContext(req: ScrapeRequest, deps: Pick<ScrapeDeps, 'config' | 'log' | 'blobs' | 'model' | 'pageVersions'>, signal?: AbortSignal, what = `Scrape of ${req.sourceURL}`): RunContext {
  const started = Date.now();
  const timeout = deadline(req.options.timeout, signal, `${what} timed out`);
  const ctx: PluginContext = {
    config: deps.config,
    log: deps.log,
    blobs: deps.blobs,
    deadline: started + req.options.timeout,
    signal: timeout.signal,
    // Main thread only: content threads build pure formats, which never use the model.
    ...(deps.model ? { model: deps.model } : {}),
    ...(deps.pageVersions ? { pageVersions: deps.pageVersions } : {}),
  };
  const failure = () =>
    signal?.aborted
      ? new TrawlError('SCRAPE_JOB_CANCELLED', 'The scrape was cancelled.')
      : new TrawlError('SCRAPE_TIMEOUT', `${what} timed out after ${req.options.timeout} ms. Raise "timeout" (max 300000) or retry.`);
  const guard = <T>(p: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(failure());
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (value) => {
          ctx.signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          ctx.signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  return { ctx, guard, started, end: timeout.dispose };
}

/**
 * The input of the format plugins for one fetched and parsed document: lazily cleaned content (the
 * cleaner runs once, on first use, taking over `parsed.tree` when the parser left one), raw HTML,
 * and the outputs of formats computed earlier.
 * @param onWarning told when main-content extraction failed and the safe cleanup was used
 */
export function createFormatInput(
  response: EngineResponse,
  req: Pick<ScrapeRequest, 'sourceURL' | 'options'>,
  parsed: ParsedDocument,
  onWarning?: (message: string, err: unknown) => void,
): FormatInput {
  const isHtml = parsed.html !== undefined;
  let cleanedNodes: AnyNode[] | undefined;
  let cleaned: string | undefined;
  const input: FormatInput = {
    sourceURL: req.sourceURL,
    url: response.url,
    options: req.options,
    response,
    parsed,
    rawHtml: () => (isHtml ? (response.text ?? parsed.html) : undefined),
    cleanedNodes: () => {
      if (!isHtml) return undefined;
      if (!cleanedNodes) {
        const tree = parsed.tree;
        parsed.tree = undefined; // the cleaner changes it in place
        cleanedNodes = cleanDom(parsed.html!, {
          url: response.url,
          tree,
          onlyMainContent: req.options.onlyMainContent,
          includeTags: req.options.includeTags,
          excludeTags: req.options.excludeTags,
          onWarning,
        });
      }
      return cleanedNodes;
    },
    cleanedHtml: () => {
      const nodes = input.cleanedNodes();
      if (!nodes) return undefined;
      cleaned ??= serializeHtml(nodes).trim();
      return cleaned;
    },
    outputs: {},
  };
  return input;
}

/**
 * Turns fetched (or uploaded) content into the Document: picks the parser (magic bytes, content
 * type, extension), parses, runs the requested formats in dependency order and assembles the
 * fields and metadata (compat.md §3). URL scrapes and `POST /v2/parse` uploads share it.
 * @param response the engine's response, or an upload dressed as one (core/pipeline/parse.ts)
 * @param req      ids, source URL and resolved options
 * @param run      context and deadline guard from `runContext`
 * @param filename an upload's file name (its extension helps pick the parser)
 * @throws TrawlError SCRAPE_UNSUPPORTED_FILE_ERROR when no parser reads the content; the parser's and
 *         formats' errors; SCRAPE_TIMEOUT at the deadline
 */
export async function buildDocument(
  response: EngineResponse,
  req: ScrapeRequest,
  deps: Pick<ScrapeDeps, 'registry' | 'content'>,
  run: RunContext,
  filename?: string,
): Promise<Document> {
  const { ctx, guard } = run;
  if (deps.content && (await threadable(response, req, deps.registry, ctx, filename))) {
    return guard(deps.content.build(response, req, ctx.deadline, filename));
  }
  const parsed = await guard(parse(response, req, deps, ctx, filename));
  const plugins = await formatPlugins(deps.registry);

  const input = createFormatInput(response, req, parsed, (message, err) => ctx.log.warn({ err }, message));

  const requested = req.options.formats.map((f) => f.type);
  // A file returned unparsed, asked for with no format that shows it: the fallback format carries it.
  const fallback = parsed.rawBase64 !== undefined ? unparsedFallback(req.options.formats, plugins) : undefined;
  if (fallback) requested.push(fallback.name);
  const fields: Record<string, Record<string, unknown>> = {};
  const warnings: string[] = [];
  const formatMetadata: Record<string, unknown> = {};
  for (const name of formatOrder(requested, plugins)) {
    const plugin = plugins.get(name)!;
    const spec = req.options.formats.find((f) => f.type === name) ?? { type: name };
    const log = ctx.log.child({ plugin: `format:${name}` });
    const { warning, metadata, ...out } = await guard(Promise.resolve(plugin.produce(input, spec, { ...ctx, log })));
    if (typeof warning === 'string' && warning) warnings.push(warning);
    if (metadata && typeof metadata === 'object') Object.assign(formatMetadata, metadata);
    fields[name] = pick(out, plugin.fields ?? [name]);
    input.outputs[name] = out[name];
  }

  const doc: Record<string, unknown> = {};
  for (const name of requested) Object.assign(doc, fields[name]);
  if (response.actions) doc.actions = response.actions;
  if (parsed.pages) doc.pages = parsed.pages;
  if (parsed.blocks) doc.blocks = parsed.blocks;
  if (parsed.warning) warnings.unshift(parsed.warning);
  if (req.options.threatProtection?.warning) warnings.push(req.options.threatProtection.warning);
  if (warnings.length) doc.warning = warnings.join(' ');
  doc.metadata = {
    ...parsed.metadata,
    ...formatMetadata,
    sourceURL: req.sourceURL,
    url: response.url,
    statusCode: response.statusCode,
    scrapeId: req.scrapeId,
    contentType: response.headers['content-type'] ?? response.contentType,
    proxyUsed: response.proxyUsed ?? 'basic',
    creditsUsed: parsed.billablePages ?? 1,
  };
  // compat.md §3 fetch facts: the IANA time zone of `location.country`, the one the browser emulates.
  const timezone = locationEmulation(req.options.location).timezone;
  if (timezone) (doc.metadata as Record<string, unknown>).timezone = timezone;
  ctx.log.debug({ url: req.url, ms: Date.now() - run.started, engine: response.engine }, 'scraped');
  return doc as Document;
}

/** The declared fields of a format's answer (a format fills only the fields it declares). */
function pick(out: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const f of fields) if (f in out) kept[f] = out[f];
  return kept;
}
