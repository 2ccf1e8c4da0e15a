/**
 * The agent request as the core sees it (compat.md §13, issue 19): the body of `POST /v2/agent`
 * checked and resolved to an `AgentRequest` with its budgets. Every field acts: `effort` sets the
 * step budget, `maxCredits` the credit budget, `strictConstrainToURLs` which tools and URLs the model
 * may use, `mode` where the answer goes (`data` or `message`), `model` is recorded and shown back.
 * Fields Trawl cannot honour (`threadId`, `exchange`) are refused with a 400 naming them.
 */
import { TrawlError } from '../errors.ts';
import { compileSchema } from '../llm/schema.ts';
import { normalizeTargetUrl } from '../pipeline/scrape-options.ts';

/** Credits an agent run may spend when `maxCredits` is not given (compat.md §13). */
export const DEFAULT_MAX_CREDITS = 2500;
/** Bounds of `maxCredits`. */
export const MAX_CREDITS_RANGE = { min: 1, max: 100_000 } as const;
/** Most `urls` of one run. */
export const MAX_URLS = 100;
/** The model name shown when the request names none (compat.md §13: `spark-1-pro` is the default). */
export const DEFAULT_MODEL_LABEL = 'spark-1-pro';

export type AgentEffort = 'low' | 'medium' | 'high';
export type AgentMode = 'extract' | 'chat';

/** Tool calls a run may make, by `effort` (default `medium`). */
export const STEP_BUDGET: Record<AgentEffort, number> = { low: 8, medium: 20, high: 40 };

/** A resolved agent request: what the worker runs. */
export interface AgentRequest {
  prompt: string;
  /** Normalized start URLs (may be empty). */
  urls: string[];
  /** JSON Schema of `data` (validated with ajv when the request came in). */
  schema?: Record<string, unknown>;
  /** Credit budget of the run: it stops before a step would pass it. */
  maxCredits: number;
  /** Only the given URLs and pages under them may be mapped, scraped or extracted; no web search. */
  strictConstrainToURLs: boolean;
  /** The `model` the caller named (any value accepted; recorded and shown in status). */
  model: string;
  /** Whether the caller set `effort` (status shows it only then). */
  effort?: AgentEffort;
  /** Tool calls allowed (from `effort`). */
  maxSteps: number;
  /** `extract`: the answer is JSON in `data`; `chat`: the answer is text in `message`. */
  mode: AgentMode;
  zeroDataRetention: boolean;
}

/**
 * Resolves a `POST /v2/agent` body (already shaped by the route's TypeBox model).
 * @throws TrawlError BAD_REQUEST naming the field: an empty prompt, an invalid URL or schema,
 *         `maxCredits` out of range, `strictConstrainToURLs` without `urls`, `threadId`, `exchange`,
 *         a schema in chat mode
 */
export function resolveAgentRequest(body: Record<string, any>): AgentRequest {
  const prompt = typeof body.prompt === 'string' ? body.prompt.trim() : '';
  if (!prompt) throw new TrawlError('BAD_REQUEST', 'prompt is required: say what the agent should find (a non-empty string).');
  if (body.threadId !== undefined && body.threadId !== null) {
    throw new TrawlError('BAD_REQUEST', 'threadId is not supported by Trawl: each agent run stands alone. Leave threadId out and put the context in the prompt.');
  }
  if (body.exchange !== undefined && body.exchange !== null && body.exchange?.enabled !== false) {
    throw new TrawlError('BAD_REQUEST', 'exchange (third-party tool calls) is not supported by Trawl. Leave exchange out.');
  }
  const rawUrls: unknown[] = Array.isArray(body.urls) ? body.urls : [];
  if (rawUrls.length > MAX_URLS) throw new TrawlError('BAD_REQUEST', `urls may hold at most ${MAX_URLS} URLs, got ${rawUrls.length}.`);
  const urls = [...new Set(rawUrls.map((u, i) => {
    try {
      return normalizeTargetUrl(String(u));
    } catch {
      throw new TrawlError('BAD_REQUEST', `urls[${i}] is not a valid http(s) URL: "${String(u).slice(0, 200)}".`);
    }
  }))];
  let schema: Record<string, unknown> | undefined;
  if (body.schema !== undefined && body.schema !== null) {
    if (typeof body.schema !== 'object' || Array.isArray(body.schema)) throw new TrawlError('BAD_REQUEST', 'schema must be a JSON Schema object.');
    compileSchema(body.schema);
    schema = body.schema;
  }
  const maxCredits = body.maxCredits ?? DEFAULT_MAX_CREDITS;
  if (!Number.isInteger(maxCredits) || maxCredits < MAX_CREDITS_RANGE.min || maxCredits > MAX_CREDITS_RANGE.max) {
    throw new TrawlError('BAD_REQUEST', `maxCredits must be an integer from ${MAX_CREDITS_RANGE.min} to ${MAX_CREDITS_RANGE.max}, got ${JSON.stringify(maxCredits)}.`);
  }
  const strict = body.strictConstrainToURLs === true;
  if (strict && urls.length === 0) throw new TrawlError('BAD_REQUEST', 'strictConstrainToURLs needs urls: give the URLs the agent must stay within.');
  const mode: AgentMode = body.mode === 'chat' ? 'chat' : 'extract';
  if (mode === 'chat' && schema) throw new TrawlError('BAD_REQUEST', 'mode "chat" answers in text (message); a schema needs mode "extract".');
  const effort = body.effort as AgentEffort | undefined;
  return {
    prompt,
    urls,
    schema,
    maxCredits,
    strictConstrainToURLs: strict,
    model: typeof body.model === 'string' && body.model.trim() ? body.model.trim().slice(0, 100) : DEFAULT_MODEL_LABEL,
    effort,
    maxSteps: STEP_BUDGET[effort ?? 'medium'],
    mode,
    zeroDataRetention: body.zeroDataRetention === true,
  };
}

/**
 * Whether `url` is one the run may visit under `strictConstrainToURLs`: a given URL, or a page on the
 * same origin under a given URL's path (its directory for a file-like path).
 */
export function withinUrls(url: string, allowed: string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return allowed.some((a) => {
    const base = new URL(a);
    if (base.origin !== u.origin) return false;
    const dir = base.pathname.endsWith('/') ? base.pathname : base.pathname.slice(0, base.pathname.lastIndexOf('/') + 1);
    return u.href === base.href || u.pathname.startsWith(dir);
  });
}
