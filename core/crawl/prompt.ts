/**
 * Crawl options from a natural-language `prompt` (interface.md "Crawl request body": explicit
 * parameters override generated ones; compat.md §7.6 params-preview). One call to the configured
 * OpenAI-compatible model asking for a JSON object of crawler options; only known fields with the
 * right types are kept, and they pass the same validation as a request's own options.
 */
import type { ResolvedConfig } from '../config.ts';
import { TrawlError } from '../errors.ts';
import { chat } from '../interact/llm.ts';
import { compilePatterns } from './patterns.ts';

/** Options a prompt may set, with their JSON types. */
const FIELDS: Record<string, 'string[]' | 'int' | 'bool' | 'number' | 'sitemap'> = {
  includePaths: 'string[]',
  excludePaths: 'string[]',
  maxDiscoveryDepth: 'int',
  crawlEntireDomain: 'bool',
  allowExternalLinks: 'bool',
  allowSubdomains: 'bool',
  sitemap: 'sitemap',
  ignoreQueryParameters: 'bool',
  deduplicateSimilarURLs: 'bool',
  delay: 'number',
  limit: 'int',
};

const SYSTEM = `You turn a request to crawl a website into crawler options. Answer with one JSON object and nothing else.
Allowed keys: includePaths and excludePaths (arrays of RE2 regular expressions matched against the URL path, no look-around),
maxDiscoveryDepth (integer >= 0), crawlEntireDomain, allowExternalLinks, allowSubdomains, ignoreQueryParameters,
deduplicateSimilarURLs (booleans), sitemap ("include", "skip" or "only"), delay (seconds, 0-60), limit (integer >= 1).
Leave out every key the request does not ask for.`;

const FAILED = 'Failed to process natural language prompt. Please try rephrasing.';

/** Keeps the known, well-typed fields of a model's answer. */
export function pickOptions(raw: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, kind] of Object.entries(FIELDS)) {
    const v = (raw as Record<string, unknown>)[key];
    if (v === undefined || v === null) continue;
    const ok =
      (kind === 'string[]' && Array.isArray(v) && v.every((x) => typeof x === 'string')) ||
      (kind === 'int' && Number.isInteger(v) && (v as number) >= (key === 'limit' ? 1 : 0)) ||
      (kind === 'bool' && typeof v === 'boolean') ||
      (kind === 'number' && typeof v === 'number' && v >= 0 && v <= 60) ||
      (kind === 'sitemap' && (v === 'include' || v === 'skip' || v === 'only'));
    if (ok) out[key] = v;
  }
  return out;
}

/**
 * Asks the model for crawler options.
 * @returns the generated options (possibly empty)
 * @throws TrawlError BACKEND_UNAVAILABLE (503) without a model; BAD_REQUEST (400) when the answer is
 *         unusable; UPSTREAM_ERROR / GATEWAY_TIMEOUT from the model call
 */
export async function optionsFromPrompt(config: ResolvedConfig, url: string, prompt: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  if (!config.llm) {
    throw new TrawlError('BACKEND_UNAVAILABLE', 'No language model is configured for prompts (set OPENAI_BASE_URL, OPENAI_API_KEY and MODEL_NAME).');
  }
  const { message } = await chat(config.llm, [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Website: ${url}\nRequest: ${prompt}` },
  ], [], timeoutMs);
  const text = message.content ?? '';
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new TrawlError('BAD_REQUEST', FAILED);
  }
  const options = pickOptions(parsed);
  try {
    compilePatterns((options.includePaths ?? []) as string[], (options.excludePaths ?? []) as string[]);
  } catch {
    throw new TrawlError('BAD_REQUEST', FAILED);
  }
  return options;
}
