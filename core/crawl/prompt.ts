/**
 * Crawl options from a natural-language `prompt` (interface.md "Crawl request body": explicit
 * parameters override generated ones; compat.md §7.6 params-preview), on the configured model
 * (core/llm; the small model when one is set). The model answers JSON valid against
 * `CRAWL_PROMPT_SCHEMA` (one repair turn, core/llm/structured.ts); only known fields are kept, and they
 * pass the same validation as a request's own options.
 *
 * Callers ask only after authentication, key restrictions and credits (issue 15 item 6). What cannot
 * be used never fails the request (issue 18 scope 4): without a model, or when the answer stays
 * invalid or its patterns or values are refused, the explicit options are used and `warning` says
 * why. A model that fails or times out is the model's UPSTREAM_ERROR (502) / GATEWAY_TIMEOUT (504):
 * starting a crawl the prompt was meant to narrow would be worse.
 */
import { TrawlError } from '../errors.ts';
import type { LanguageModel } from '../plugin.ts';
import { compilePatterns } from './patterns.ts';
import { resolveCrawlerOptions, type CrawlerOptions } from './options.ts';

/** What the model is asked to answer (JSON Schema, draft-07). */
export const CRAWL_PROMPT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    includePaths: { type: 'array', items: { type: 'string' }, description: 'RE2 regular expressions; only URL paths matching one are crawled' },
    excludePaths: { type: 'array', items: { type: 'string' }, description: 'RE2 regular expressions; URL paths matching one are skipped' },
    maxDiscoveryDepth: { type: 'integer', minimum: 0 },
    crawlEntireDomain: { type: 'boolean' },
    allowExternalLinks: { type: 'boolean' },
    allowSubdomains: { type: 'boolean' },
    sitemap: { type: 'string', enum: ['include', 'skip', 'only'] },
    ignoreQueryParameters: { type: 'boolean' },
    deduplicateSimilarURLs: { type: 'boolean' },
    delay: { type: 'number', minimum: 0, maximum: 60, description: 'seconds between pages' },
    limit: { type: 'integer', minimum: 1 },
  },
};

const FIELDS = Object.keys(CRAWL_PROMPT_SCHEMA.properties as object);

const SYSTEM = `You turn a request to crawl a website into crawler options, as one JSON object.
includePaths and excludePaths are RE2 regular expressions matched against the URL path (no look-around, no backreferences).
Leave out every option the request does not ask for.`;

/** The sentence of the reference for an unusable prompt answer (compat.md §7.6). */
export const PROMPT_FAILED = 'Failed to process natural language prompt. Please try rephrasing.';
const NO_MODEL = 'No language model is configured (OPENAI_BASE_URL or OLLAMA_BASE_URL), so the prompt was not used; the explicit options apply.';

/** Options generated from a prompt, and why none were when they were not. */
export interface PromptOptions {
  options: Record<string, unknown>;
  warning?: string;
}

/** Keeps the known fields of a (validated) answer. */
export function pickOptions(raw: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const key of FIELDS) {
    const v = (raw as Record<string, unknown>)[key];
    if (v !== undefined && v !== null) out[key] = v;
  }
  return out;
}

/**
 * Asks the model for crawler options.
 * @returns the generated options (possibly empty), with a `warning` when the prompt could not be used
 * @throws TrawlError UPSTREAM_ERROR (502) / GATEWAY_TIMEOUT (504) when the model fails
 */
export async function optionsFromPrompt(model: LanguageModel | undefined, url: string, prompt: string, signal?: AbortSignal): Promise<PromptOptions> {
  if (!model) return { options: {}, warning: NO_MODEL };
  let value: unknown;
  try {
    ({ value } = await model.json({
      messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: `Website: ${url}\nRequest: ${prompt}` }],
      schema: CRAWL_PROMPT_SCHEMA,
      schemaName: 'crawl_options',
      purpose: 'crawl:prompt',
      small: true,
      maxTokens: 1000,
      signal,
    }));
  } catch (e) {
    if (e instanceof TrawlError && e.code === 'MODEL_OUTPUT_INVALID') return { options: {}, warning: `${PROMPT_FAILED} ${e.message}` };
    throw e;
  }
  const options = pickOptions(value);
  try {
    compilePatterns((options.includePaths ?? []) as string[], (options.excludePaths ?? []) as string[]);
  } catch (e) {
    return { options: {}, warning: `${PROMPT_FAILED} The generated paths were refused: ${(e as Error).message}` };
  }
  return { options };
}

/**
 * The crawler options of a request with a prompt: generated options under the request's own.
 * @param explicit the request's options resolved without the prompt (the fallback)
 * @returns the options to crawl with, what the prompt generated (undefined when nothing was usable), a warning
 * @throws TrawlError UPSTREAM_ERROR / GATEWAY_TIMEOUT from the model
 */
export async function crawlerOptionsWithPrompt(
  model: LanguageModel | undefined,
  body: Record<string, unknown>,
  explicit: CrawlerOptions,
  prompt: string,
): Promise<{ crawler: CrawlerOptions; generated?: Record<string, unknown>; warning?: string }> {
  const { options, warning } = await optionsFromPrompt(model, explicit.url, prompt);
  if (warning) return { crawler: explicit, warning };
  try {
    return { crawler: resolveCrawlerOptions({ ...options, ...body }), generated: options };
  } catch (e) {
    return { crawler: explicit, warning: `${PROMPT_FAILED} The generated options were refused: ${(e as Error).message}` };
  }
}
