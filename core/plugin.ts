/**
 * Plugin kinds and their `define*` helpers. A plugin is one file with a default export made by one of
 * these helpers; the helpers only type the object. Plugin files stay light: a heavy dependency (mupdf,
 * tesseract.js, puppeteer) is imported inside the method that needs it, so listing plugins is cheap.
 * `core/registry.ts` maps names to loaders.
 */
import type { TargetPolicy } from './net/target-policy.ts';
import type { AnyNode, Document as HtmlTree } from 'domhandler';
import type { TSchema } from '@sinclair/typebox';
import type { ResolvedConfig } from './config.ts';
import type { Logger } from './log.ts';
import type { ScrapeOptions } from './scrape/options.ts';
import type { BlobStore } from './blobs.ts';
import type { Queryable } from './db/client.ts';
import type { PageVersionStore } from './page-versions/types.ts';

export type PluginKind = 'format' | 'parser' | 'engine' | 'proxy' | 'search-provider' | 'support' | 'threat-list' | 'llm';

/** What every plugin method receives: config, a child logger naming the plugin, and the job's limits. */
export interface PluginContext {
  config: ResolvedConfig;
  log: Logger;
  /** Aborted when the job times out or is cancelled; long work checks it. */
  signal: AbortSignal;
  /** Epoch ms by which the whole job must be done. */
  deadline: number;
  /** Where binary outputs (screenshots, PDFs) are stored and served from. */
  blobs: BlobStore;
  /**
   * The configured language model, bound to the job's team (its tokens are counted for that team);
   * undefined when no model is configured (the default): features then answer deterministically
   * and say so in `warning`.
   */
  model?: LanguageModel;
  /**
   * The kept page versions of the job's team (core/page-versions; change tracking); undefined where
   * no history is at hand (uploads, contract runs without one).
   */
  pageVersions?: PageVersionStore;
}

// ---------------------------------------------------------------------------------------------------
// Language models: one interface over every OpenAI-compatible server (plugin kind `llm`, core/llm).

/** Tokens one or more model calls used. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A chat message (OpenAI chat-completions shape). */
export interface ModelMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** A tool the model may call (OpenAI `tools` entry). */
export interface ModelTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** One model call. */
export interface ModelRequest {
  messages: ModelMessage[];
  tools?: ModelTool[];
  /** Use the smaller, cheaper model when one is configured (cheap passes). */
  small?: boolean;
  /** Most tokens of the answer. */
  maxTokens?: number;
  /** What the call is for, recorded with its tokens (`format:json`, `crawl:prompt` …). */
  purpose: string;
  signal?: AbortSignal;
}

/**
 * A configured chat model as plugins and services use it. Implementations handle timeouts, retries
 * on 429/5xx with backoff and a per-process concurrency limit, and count tokens per team.
 */
export interface LanguageModel {
  /** The model's name (`MODEL_NAME`). */
  readonly name: string;
  /** Its context window, tokens: callers chunk long input to fit. */
  readonly contextTokens: number;
  /**
   * One chat turn.
   * @returns the assistant message (text and/or tool calls) and the tokens used
   * @throws TrawlError UPSTREAM_ERROR (502) when the server fails or answers nonsense; GATEWAY_TIMEOUT (504)
   */
  chat(request: ModelRequest): Promise<{ message: ModelMessage; usage: TokenUsage; finishReason?: string }>;
  /**
   * A JSON answer valid against `schema` (JSON Schema): structured output where the server supports
   * it, else JSON mode with the schema in the prompt; validated, with one repair turn that shows the
   * model its validation errors.
   * @throws TrawlError MODEL_OUTPUT_INVALID (502) naming what failed after the repair turn; as `chat`
   */
  json<T = unknown>(request: ModelRequest & { schema: Record<string, unknown>; schemaName?: string }): Promise<{ value: T; usage: TokenUsage }>;
}

/** How a completion is asked to answer: JSON valid against `schema` (the provider picks the means). */
export interface ModelOutputFormat {
  type: 'json';
  /** JSON Schema of the answer. */
  schema: Record<string, unknown>;
  /** Name shown to the server (`response_format.json_schema.name`; `[A-Za-z0-9_-]`, ≤ 64). */
  name: string;
}

/** One answered model call, as a provider reports it. */
export interface ModelCompletion {
  message: ModelMessage;
  usage: TokenUsage;
  /** The model that answered (the configured name; the small one for `small` requests). */
  model: string;
  /** `stop`, `length` (cut at `maxTokens` or the context), `tool_calls`, `content_filter` … */
  finishReason: string;
  /** True when the server reported no usage and the tokens were estimated (characters / 4). */
  estimated?: boolean;
}

/**
 * A provider's process-wide client (one per configuration): the transport only. Timeouts, retries on
 * 429/5xx with backoff, the concurrency limit and the means of structured output are its business;
 * validation, repair turns and per-team accounting are core/llm's.
 */
export interface ModelClient {
  readonly name: string;
  readonly smallName: string;
  readonly contextTokens: number;
  /**
   * One completion.
   * @throws TrawlError UPSTREAM_ERROR (502) when the server fails, refuses (4xx) or answers nonsense
   *         after the retries; GATEWAY_TIMEOUT (504) when it does not answer in time
   */
  complete(request: ModelRequest & { output?: ModelOutputFormat }): Promise<ModelCompletion>;
}

/** A language-model provider (plugin kind `llm`; plugins/llm/). */
export interface ModelProviderPlugin {
  kind: 'llm';
  name: string;
  /** Whether the config sets this provider up (`config.llm`). */
  configured(config: ResolvedConfig): boolean;
  /** Opens the client; core/llm calls it once per process and configuration. */
  open(config: ResolvedConfig, log: Logger): ModelClient;
}

export function defineModelProvider(plugin: Omit<ModelProviderPlugin, 'kind'>): ModelProviderPlugin {
  return { kind: 'llm', ...plugin };
}

// ---------------------------------------------------------------------------------------------------
// Engines: fetch a URL.

/** Capabilities an engine declares; the core picks the cheapest engine covering the request's needs. */
export type EngineFeature =
  | 'http' // plain HTTP(S) fetch
  | 'js' // runs page JavaScript
  | 'actions' // the actions list of the scrape options
  | 'screenshot'
  | 'pdf-print' // renders the page to PDF (pdf action)
  | 'mobile' // device emulation
  | 'wait' // waitFor / smart wait
  | 'location' // locale and time zone emulation
  | 'profile'; // persistent browser state

/** Proxy route chosen for one fetch. `url`: `http://user:pass@host:port` or `socks5://host:port`. */
export interface ProxyRoute {
  name: string;
  url: string;
  /** What the response reports in `metadata.proxyUsed` (compat.md §3). */
  tier: 'basic' | 'stealth';
}

export interface EngineRequest {
  /** Absolute http(s) URL, already checked by the SSRF guard. */
  url: string;
  /** Request headers to send (user headers merged with Accept-Language from `location`). */
  headers: Record<string, string>;
  /** The whole scrape's options, resolved (defaults applied). */
  options: ScrapeOptions;
  /** Time the engine may spend, ms. */
  timeoutMs: number;
  proxy?: ProxyRoute;
  /** Named browser profile of the scrape (interface.md `profile`; core/profiles): state to restore, and how to save it. */
  profile?: ProfileHandle;
  /** What the SSRF guard allows (re-checked on every redirect and, in the browser, every request). */
  targets: TargetPolicy;
  /**
   * What the requested formats need taken from the live page (their `capture` declarations), by
   * format name; the engine answers each in `EngineResponse.captures` under the same name.
   */
  captures?: Record<string, EngineCapture>;
}

/**
 * Something a format needs from the live page, taken by the engine after the actions ran:
 * - `screenshot`: an image of the page stored in the blob store; the answer is its URL (string).
 *   `fullPage` captures the whole height; `quality` 1–100 makes a JPEG (PNG without);
 *   `viewport` resizes the page for the capture only. Needs the `screenshot` engine feature.
 * - `evaluate`: `script`, the source of a function expression without arguments, run in the page;
 *   the answer is its JSON-serializable return value. Needs the `js` engine feature.
 */
export type EngineCapture =
  | { kind: 'screenshot'; fullPage?: boolean; quality?: number; viewport?: { width: number; height: number } }
  | { kind: 'evaluate'; script: string };

/** Persistent browser state of a named profile (interface.md `profile`): cookies and localStorage. */
export interface ProfileState {
  /** Cookies as CDP `Network.CookieParam` objects (name, value, domain, path, expires, httpOnly, secure, sameSite). */
  cookies: Record<string, unknown>[];
  /** localStorage per origin (`http://host:port`), entries in insertion order. */
  origins: { origin: string; localStorage: [string, string][] }[];
}

/** A profile attached to one browser session (core/profiles opens it; the browser engine applies it). */
export interface ProfileHandle {
  name: string;
  /** State to restore before the first navigation; undefined for a new profile. */
  state?: ProfileState;
  /** Present when the session saves its changes (`saveChanges`): called with the final state before the page closes. */
  save?(state: ProfileState): Promise<void>;
}

/** Results of the `actions` list, in request order (interface.md, Scrape response). */
export interface ActionResults {
  screenshots: string[];
  scrapes: { url: string; html: string }[];
  javascriptReturns: { type: string; value: unknown }[];
  pdfs: string[];
}

export interface EngineResponse {
  /** Final URL after redirects. */
  url: string;
  /** HTTP status from the target site. */
  statusCode: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** Content type without parameters, lower case (`text/html`). */
  contentType: string;
  /** Raw body bytes (at most `maxFetchBytes`). */
  body: Uint8Array;
  /** Body decoded with its charset when it is text; the rendered DOM for browser engines. */
  text?: string;
  /** Answers to `EngineRequest.captures`, by format name (a screenshot's blob URL, a script's value). */
  captures?: Record<string, unknown>;
  actions?: ActionResults;
  /** Name of the engine that produced this response. */
  engine: string;
  proxyUsed?: 'basic' | 'stealth';
}

export interface EnginePlugin {
  kind: 'engine';
  name: string;
  features: EngineFeature[];
  /** Relative cost; lower is preferred when several engines cover the request. */
  cost: number;
  fetch(request: EngineRequest, ctx: PluginContext): Promise<EngineResponse>;
  /** Releases pooled resources (browsers) at shutdown. */
  close?(): Promise<void>;
}

export function defineEngine(plugin: Omit<EnginePlugin, 'kind'>): EnginePlugin {
  return { kind: 'engine', ...plugin };
}

// ---------------------------------------------------------------------------------------------------
// Parsers: turn fetched bytes into a parsed document (HTML to clean, or markdown).

export interface ParserInput {
  bytes: Uint8Array;
  /** Content type without parameters, lower case; may be `application/octet-stream`. */
  contentType: string;
  /** Final URL (or a synthetic `file://` URL for uploads). */
  url: string;
  filename?: string;
  /** Decoded text when the engine already decoded it (HTML). */
  text?: string;
}

/** One item of the request's `parsers` list (interface.md, Scrape options `parsers`). */
export interface ParserOptions {
  type: string;
  mode?: 'fast' | 'auto' | 'ocr';
  maxPages?: number;
  pages?: boolean;
  pageMarkers?: boolean;
  blocks?: boolean;
}

export interface ParsedDocument {
  /** Full HTML to be cleaned and converted by formats (web pages, DOCX through mammoth ...). */
  html?: string;
  /**
   * `html` already parsed (htmlparser2/domhandler, `parseHtml` of core/html/dom.ts), when the
   * parser built the tree anyway: the cleaner takes it over instead of parsing `html` again. It is
   * changed in place by the cleaning, so nothing else may read it.
   */
  tree?: HtmlTree;
  /**
   * Every link of the page (rules of core/html/links.ts: `<a>`/`<area>` hrefs, absolute, once
   * each, http(s) and mailto) when the parser read them; the `links` format and the crawl use them.
   */
  links?: string[];
  /** Markdown produced directly (PDF, OCR, spreadsheets); formats use it as is. */
  markdown?: string;
  /** Metadata found in the file (title, description, language, og:*, numPages ...). */
  metadata: Record<string, unknown>;
  pages?: { pageNumber: number; markdown: string }[];
  blocks?: unknown[];
  /**
   * Set when the file is returned unparsed (an opt-in parser left out, interface.md `parsers`): the
   * raw bytes base64-encoded. Formats that declare `unparsed: 'shows'` carry it in their field.
   */
  rawBase64?: string;
  /** Credits this document costs instead of 1 (PDF: 1 per page). */
  billablePages?: number;
  warning?: string;
}

export interface ParserPlugin {
  kind: 'parser';
  name: string;
  /** What the parser takes: content types, file extensions, and an optional magic-bytes test. */
  accepts: { mime: string[]; ext: string[]; magic?: (bytes: Uint8Array) => boolean };
  /**
   * Opt-in parsers run only when the request's `parsers` list names them (interface.md: `pdf` is in
   * the default list; `parsers: []` returns a PDF base64-encoded instead).
   */
  optIn?: boolean;
  parse(input: ParserInput, options: ParserOptions, ctx: PluginContext): Promise<ParsedDocument>;
  /** Releases worker pools (mupdf, tesseract) at shutdown. */
  close?(): Promise<void>;
}

export function defineParser(plugin: Omit<ParserPlugin, 'kind'>): ParserPlugin {
  return { kind: 'parser', ...plugin };
}

// ---------------------------------------------------------------------------------------------------
// Formats: produce one output field of the document.

/** What a format reads: the fetched response, the parsed document and lazily computed views. */
export interface FormatInput {
  /** The URL as the user sent it (metadata.sourceURL). */
  sourceURL: string;
  /** Final URL. */
  url: string;
  options: ScrapeOptions;
  response: EngineResponse;
  parsed: ParsedDocument;
  /** Raw HTML as fetched (or rendered); undefined for non-HTML content. */
  rawHtml(): string | undefined;
  /** HTML after `onlyMainContent`, `includeTags`, `excludeTags` (memoized). */
  cleanedHtml(): string | undefined;
  /** The same content as nodes of the cleaned page tree (memoized; read-only: do not change them). */
  cleanedNodes(): readonly AnyNode[] | undefined;
  /** Outputs of formats computed earlier, by format name (those named in `needs`). */
  outputs: Record<string, unknown>;
}

/** Where a format may be requested: `scrape`, `batch`, crawl / search `scrapeOptions`, `POST /v2/parse`, v1 routes. */
export type FormatSurface = 'scrape' | 'batch' | 'crawl' | 'search' | 'parse' | 'v1';

/** Every surface: the default of `FormatPlugin.allowedIn`. */
export const ALL_FORMAT_SURFACES: readonly FormatSurface[] = ['scrape', 'batch', 'crawl', 'search', 'parse', 'v1'];

/**
 * A format plugin declares everything the core needs to know about it (issue 16): nothing outside
 * formats/ names a format. Its `name` is the wire name, the name key restrictions allow, and by default
 * the document field it fills.
 */
/** What a format's fields hold (`FormatPlugin.content`). */
export type FormatContent = 'text' | 'markup' | 'urls' | 'binary';

export interface FormatPlugin<O = Record<string, unknown>> {
  kind: 'format';
  name: string;
  /** Part of the default format list when a request names none (interface.md: `["markdown"]`). */
  default?: boolean;
  /** Document fields this format fills (default `[name]`); other keys of `produce`'s answer are dropped. */
  fields?: string[];
  /**
   * Credits per page on top of the page's own (JSON mode: 4), or a function of the format's options
   * when they decide it (a mode that calls the model). Default 0.
   */
  credits?: number | ((options: O) => number);
  /**
   * The least default timeout of a request with this format, ms (compat.md §2.2: JSON mode raises a
   * default timeout to at least 60 s); a timeout the caller sets is kept.
   */
  minTimeoutMs?: number;
  /** Where the format may be requested (default everywhere); elsewhere a 400 names the format. */
  allowedIn?: FormatSurface[];
  /** Must be the only format of the request (`rawBase64`); a 400 otherwise. */
  exclusive?: boolean;
  /** Whether a request with this format may be cached (false: forces `storeInCache` off). Default true. */
  cacheable?: boolean;
  /** The output holds blob URLs, which expire (24 h): a cached document lives no longer than they do. */
  blobs?: boolean;
  /**
   * How the format treats a file returned unparsed (`parsed.rawBase64`): `shows` means its field
   * carries the base64 text; `fallback` means the core adds this format when no requested format
   * shows the file. At most one registered format is the fallback.
   */
  unparsed?: 'shows' | 'fallback';
  /**
   * False when the format reads only the fetched response (raw bytes, media): content that no parser
   * reads (audio, video, any binary) is then fine when every requested format says so. Default true.
   */
  needsParser?: boolean;
  /**
   * What the format's fields hold, for steps that treat text by kind (redactPII, core/privacy):
   * `text` (default), `markup` (HTML), `urls` (a URL or URLs) or `binary` (blob URLs, base64, media:
   * never rewritten).
   */
  content?: FormatContent;
  /**
   * What other features read from this format: `page-links` means its output is the page's links
   * (string[]), which the crawl follows; `page-changes` means its output is the page's change
   * tracking (core/page-versions `ChangeTracking`), which monitors read and request by this format's name.
   */
  role?: 'page-links' | 'page-changes';
  /** What the format needs taken from the live page by the engine (see `EngineCapture`). */
  capture?(options: O): EngineCapture;
  /**
   * Checks that a schema cannot express (a CSS selector that compiles); called when the request is
   * validated. @throws TrawlError BAD_REQUEST naming the option.
   */
  validate?(options: O): void;
  /** Extra fields of the object form `{ type: name, ... }`; absent: the format takes no options. */
  options?: TSchema;
  /** Whether the bare string form is allowed (false for `json`: compat.md §2.1). Default true. */
  stringForm?: boolean;
  /** Formats whose output this one reads; the core computes them first. */
  needs?: string[];
  /**
   * Formats the request must name as well (compat.md §2.1: a format that "needs markdown" in the
   * reference's sense); a 400 names the missing ones otherwise.
   */
  withFormats?: string[];
  /** Engine features this format needs (a screenshot needs a browser). */
  requires?: EngineFeature[];
  /**
   * The output depends only on the FormatInput (no network, blob store or engine artefacts), so the
   * core may produce it on a content thread (core/pipeline/content-threads.ts).
   */
  pure?: boolean;
  /**
   * Returns fields merged into the document (usually `{ [name]: value }`), restricted to `fields`; a
   * `warning` key (string) is not a field: the core appends it to the document's `warning`; nor is a
   * `metadata` key (object): its entries join the document's metadata (the core's own keys win).
   */
  produce(input: FormatInput, options: O, ctx: PluginContext): Promise<Record<string, unknown>> | Record<string, unknown>;
}

export function defineFormat<O = Record<string, unknown>>(plugin: Omit<FormatPlugin<O>, 'kind'>): FormatPlugin<O> {
  return { kind: 'format', ...plugin } as FormatPlugin<O>;
}

// ---------------------------------------------------------------------------------------------------
// Proxies, search providers, support.

export interface ProxyPlugin {
  kind: 'proxy';
  name: string;
  /** A route for this tier and country, or undefined when this plugin has none. */
  route(request: { tier: 'basic' | 'enhanced'; country?: string }, config: ResolvedConfig): ProxyRoute | undefined;
}

export function defineProxy(plugin: Omit<ProxyPlugin, 'kind'>): ProxyPlugin {
  return { kind: 'proxy', ...plugin };
}

/** A provider-neutral search query (compat.md §11.1 after validation). */
export interface SearchQuery {
  query: string;
  source: 'web' | 'news' | 'images';
  limit: number;
  tbs?: string;
  location?: string;
  country?: string;
  lang?: string;
  safe?: boolean;
  timeoutMs: number;
  /** Query-relevant snippet in `description` (default true); false: the plain description (compat.md §11.1). */
  highlights?: boolean;
}

export interface SearchHit {
  url: string;
  title: string;
  description: string;
  /** News: relative or absolute date text. */
  date?: string;
  /** Publication time as ISO 8601 when the provider knows it (used for `tbs` date ranges). */
  publishedAt?: string;
  imageUrl?: string;
  imageWidth?: number;
  imageHeight?: number;
}

export interface SearchProviderPlugin {
  kind: 'search-provider';
  name: string;
  /** Whether the config holds what this provider needs (keys, URLs). */
  configured(config: ResolvedConfig): boolean;
  /** Sources this provider answers (default all); the core asks the next provider for the others. */
  sources?: SearchQuery['source'][];
  search(query: SearchQuery, ctx: SearchContext): Promise<SearchHit[]>;
}

/** What a search provider receives: the plugin context plus the database (the local index reads it). */
export interface SearchContext extends PluginContext {
  db: Queryable;
  /** Teams whose local-index pages this search may read (core/search/visibility.ts); none when absent. */
  indexTeams?: readonly string[];
}

export function defineSearchProvider(plugin: Omit<SearchProviderPlugin, 'kind'>): SearchProviderPlugin {
  return { kind: 'search-provider', ...plugin };
}

/**
 * A failed request or job as support plugins see it (core/support, POST /v2/support/ask): always the
 * caller team's own, never zero data retention work.
 */
export interface SupportFailure {
  /** Job id (crawl, batch) or the kept failure's id (scrape, map and refused requests). */
  id: string;
  kind: 'scrape' | 'crawl' | 'batch_scrape' | 'map';
  url?: string;
  /** The request body as the caller sent it: `fixParameters` are merged into it unchanged. */
  request: Record<string, unknown>;
  /** The error the request or job ended with; absent for a job that "succeeded" badly (0 pages). */
  error?: { code: string; message: string; status: number; headers?: Record<string, string> };
  /** Crawl and batch: the status word, pages completed and the pages' errors (first few). */
  status?: string;
  completed?: number;
  pageErrors?: { url: string; code?: string; error: string }[];
  /** Crawl: URLs robots.txt kept out. */
  robotsBlocked?: string[];
  /** A scrape that answered but with (almost) no content: its status code and content length (all outputs but the metadata, characters). */
  document?: { statusCode: number; contentChars: number };
  /** When it failed, epoch ms. */
  at?: number;
}

/** What a support plugin concludes about a failure. */
export interface SupportDiagnosis {
  /** The failure class (the plugin's name). */
  class: string;
  /** high: an error code establishes the class; medium: inferred from statuses or content; low: a guess. */
  confidence: 'high' | 'medium' | 'low';
  /** What happened and what the fix does, in a few sentences. */
  answer: string;
  /** Parameters to merge into the original request body, unchanged; `{}` when no parameter fixes it. */
  fixParameters: Record<string, unknown>;
  /** Whether re-running with the fix can show it works (false when the fix is the operator's, or a wait). */
  validate: boolean;
}

/**
 * A diagnosis rule for one failure class (issue 21). The service tries the registered plugins in
 * order; the first that recognises the failure answers.
 */
export interface SupportPlugin {
  kind: 'support';
  name: string;
  /** The diagnosis, or undefined when the failure is not of this plugin's class. Must not throw. */
  diagnose(failure: SupportFailure, ctx: PluginContext): SupportDiagnosis | undefined | Promise<SupportDiagnosis | undefined>;
}

export function defineSupport(plugin: Omit<SupportPlugin, 'kind'>): SupportPlugin {
  return { kind: 'support', ...plugin };
}

// ---------------------------------------------------------------------------------------------------
// Threat lists: sources of blocked hosts for threatProtection (core/threat).

/** A loaded list: the entry that blocks `host` (lower-case ASCII), or undefined. */
export type ThreatListMatcher = (host: string) => string | undefined;

export interface ThreatListPlugin {
  kind: 'threat-list';
  name: string;
  /** Whether this instance's config sets the source up (unconfigured lists are skipped). */
  configured(config: ResolvedConfig): boolean;
  /**
   * Loads the list once per process (core/threat/lists.ts memoizes it).
   * @throws Error when the source cannot be read (the policy's `failurePolicy` decides then)
   */
  load(config: ResolvedConfig): Promise<ThreatListMatcher>;
}

export function defineThreatList(plugin: Omit<ThreatListPlugin, 'kind'>): ThreatListPlugin {
  return { kind: 'threat-list', ...plugin };
}

export type AnyPlugin = EnginePlugin | ParserPlugin | FormatPlugin<any> | ProxyPlugin | SearchProviderPlugin | SupportPlugin | ThreatListPlugin | ModelProviderPlugin;

/** Plugin type by kind. */
export interface PluginByKind {
  format: FormatPlugin<any>;
  parser: ParserPlugin;
  engine: EnginePlugin;
  proxy: ProxyPlugin;
  'search-provider': SearchProviderPlugin;
  support: SupportPlugin;
  'threat-list': ThreatListPlugin;
  llm: ModelProviderPlugin;
}
