/**
 * The extract request (compat.md §12; issue 19 scope 1): what `POST /v2/extract` (and `/v1/extract`)
 * asks for, resolved and checked without I/O. The URL list is checked and its `/*` globs expanded
 * later (core/extract/urls.ts), since that needs the network. Every field acts or is answered with a
 * `warning` naming why it does nothing (common rules): `allowExternalLinks` and `agent` are accepted
 * for client compatibility and reported as unused; `scrapeOptions.formats` is replaced by the
 * structured-data format (an extract returns only the data).
 */
import { TrawlError } from '../errors.ts';
import { compileSchema } from '../llm/schema.ts';
import { resolveScrapeOptions } from '../pipeline/scrape-options.ts';
import { structuredDataFormat, type FormatPlugins } from '../scrape/formats.ts';
import type { ScrapeOptions } from '../scrape/options.ts';

/** Most entries of `urls` (globs count once), and most pages an extract reads in all. */
export const MAX_EXTRACT_URLS = 100;
/** Most pages one `/*` glob expands to (the map's first ones). */
export const MAX_GLOB_PAGES = 50;
/** Most web search results added by `enableWebSearch` (or a prompt without `urls`). */
export const MAX_SEARCH_PAGES = 5;
/** Default and bounds of the whole extract's `timeout`, ms. */
export const EXTRACT_TIMEOUT = { default: 300_000, min: 5_000, max: 1_800_000 } as const;
/** Longest prompt or system prompt, characters (as the json format's prompt). */
const MAX_PROMPT_CHARS = 10_000;

/** The extract request after defaults and checks (the worker's input, with the URLs filled in later). */
export interface ExtractRequest {
  /** Entries of `urls` as sent (globs unexpanded). */
  rawUrls: string[];
  prompt?: string;
  schema?: Record<string, unknown>;
  systemPrompt?: string;
  /** Search the prompt through the configured search providers (the local index included). */
  enableWebSearch: boolean;
  showSources: boolean;
  includeSubdomains: boolean;
  ignoreInvalidURLs: boolean;
  /** Globs expand without the site's sitemap (only the links of its page). */
  ignoreSitemap: boolean;
  /** Scrape options of every page: the request's `scrapeOptions` with the structured-data format only. */
  scrape: ScrapeOptions;
  /** Budget of the whole extract from its creation, ms. */
  timeoutMs: number;
  warnings: string[];
}

const bad = (message: string) => new TrawlError('BAD_REQUEST', message);

function text(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw bad(`${field} must be a string.`);
  const t = v.trim();
  if (t.length > MAX_PROMPT_CHARS) throw bad(`${field} is ${t.length} characters long; at most ${MAX_PROMPT_CHARS} are allowed.`);
  return t || undefined;
}

/**
 * Resolves an extract body (already shape-checked by the HTTP model).
 * @param formats the registered format plugins (one of them has the `structured-data` role)
 * @throws TrawlError BAD_REQUEST: neither urls nor prompt, neither prompt nor schema, more than
 *         MAX_EXTRACT_URLS urls, an invalid JSON schema, a bad timeout or scrape option;
 *         BACKEND_UNAVAILABLE when no format can produce structured data
 */
export function resolveExtractRequest(body: Record<string, any>, formats: FormatPlugins): ExtractRequest {
  const rawUrls = (Array.isArray(body.urls) ? body.urls : []).map((u: unknown) => String(u));
  const prompt = text(body.prompt, 'prompt');
  const systemPrompt = text(body.systemPrompt, 'systemPrompt');
  const schema = body.schema ?? undefined;
  if (rawUrls.length === 0 && !prompt) {
    throw bad('Send "urls" (pages to read; a trailing /* reads the pages Trawl maps under it), or a "prompt" to search the web for, or both.');
  }
  if (!prompt && !schema) throw bad('Send a "prompt" saying what to extract, or a JSON "schema" of the data, or both.');
  if (rawUrls.length > MAX_EXTRACT_URLS) {
    throw bad(`urls lists ${rawUrls.length} entries; at most ${MAX_EXTRACT_URLS} are allowed per extract. Split the list, or use a glob such as https://example.org/blog/* .`);
  }
  if (schema !== undefined) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw bad('schema must be a JSON Schema object, e.g. { "type": "object", "properties": { ... } }.');
    compileSchema(schema); // BAD_REQUEST naming the problem
  }
  const timeoutMs = body.timeout ?? EXTRACT_TIMEOUT.default;
  if (!Number.isInteger(timeoutMs) || timeoutMs < EXTRACT_TIMEOUT.min || timeoutMs > EXTRACT_TIMEOUT.max) {
    throw bad(`timeout is the whole extract's budget in milliseconds, from ${EXTRACT_TIMEOUT.min} to ${EXTRACT_TIMEOUT.max}; got ${JSON.stringify(body.timeout)}.`);
  }
  const plugin = structuredDataFormat(formats);
  if (!plugin) throw new TrawlError('BACKEND_UNAVAILABLE', 'No format plugin with the structured-data role is registered; extract needs one (the built-in json format).');
  const warnings: string[] = [];
  const given = (body.scrapeOptions ?? {}) as Record<string, any>;
  if (given.formats !== undefined) warnings.push('scrapeOptions.formats is not used: an extract returns only the extracted data.');
  if (body.allowExternalLinks !== undefined) warnings.push('allowExternalLinks is not used: an extract reads the listed pages, the pages its globs map to and web search results.');
  if (body.agent !== undefined) warnings.push('agent is not used by extract: the configured model answers. Use POST /v2/agent for an agent run.');
  // The system prompt and the prompt both reach the model as the format's instructions.
  const instructions = [systemPrompt, prompt].filter(Boolean).join('\n\n') || undefined;
  const spec = { type: plugin.name, ...(instructions ? { prompt: instructions } : {}), ...(schema ? { schema } : {}) };
  const scrape = resolveScrapeOptions(
    { ...given, formats: [spec], zeroDataRetention: given.zeroDataRetention === true || body.zeroDataRetention === true },
    formats,
    'crawl',
  );
  return {
    rawUrls,
    prompt,
    schema,
    systemPrompt,
    enableWebSearch: body.enableWebSearch === true || rawUrls.length === 0,
    showSources: body.showSources === true,
    includeSubdomains: body.includeSubdomains !== false,
    ignoreInvalidURLs: body.ignoreInvalidURLs !== false,
    ignoreSitemap: body.ignoreSitemap === true,
    scrape,
    timeoutMs,
    warnings,
  };
}
