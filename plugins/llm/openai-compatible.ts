/**
 * The model provider for every OpenAI-compatible chat-completions server (OpenAI, Ollama's `/v1`,
 * vLLM, llama.cpp's server, LM Studio), on the `openai` npm client with its own retries off:
 * - one call at a time per slot of a per-process p-queue (`TRAWL_MODEL_CONCURRENCY`);
 * - each attempt bounded by `TRAWL_MODEL_TIMEOUT_MS` and the caller's signal; a timeout is a 504 and
 *   is not retried (the next attempt would most likely time out too);
 * - 429, 5xx and unreachable servers retried `TRAWL_MODEL_MAX_RETRIES` times, waiting what
 *   `Retry-After` asks when it is within `TRAWL_MODEL_RETRY_MAX_WAIT_MS` (a longer ask fails at once),
 *   else exponential backoff (plugins/llm/retry.ts); the wait holds no concurrency slot;
 * - JSON answers by the means of plugins/llm/structured-output.ts, stepping down on a 400;
 * - usage from the server's `usage`, or estimated as characters / 4 when it sends none.
 * Failures are TrawlErrors naming the provider: UPSTREAM_ERROR (502) or GATEWAY_TIMEOUT (504).
 */
import type OpenAI from 'openai';
import PQueue from 'p-queue';
import type { ModelSettings } from '../../core/config.ts';
import type { Logger } from '../../core/log.ts';
import { TrawlError } from '../../core/errors.ts';
import { defineModelProvider, type ModelClient, type ModelCompletion, type ModelMessage, type ModelOutputFormat, type ModelRequest } from '../../core/plugin.ts';
import { backoffMs, retryableStatus, retryAfterMs } from './retry.ts';
import { sleep } from '../../core/net/deadline.ts';
import { StructuredOutput, structuredRequest, type OutputMeans } from './structured-output.ts';

const NAME = 'openai-compatible';

type Request = ModelRequest & { output?: ModelOutputFormat };
type OpenAIModule = typeof import('openai');

/** Characters per token when the server reports no usage. */
const CHARS_PER_TOKEN = 4;

function estimateTokens(messages: ModelMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += (m.content ?? '').length + 4;
    for (const c of m.tool_calls ?? []) chars += c.function.name.length + c.function.arguments.length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** An attempt's failure as the retry loop sees it. */
interface Failure {
  status?: number;
  headers?: Headers;
  timeout?: boolean;
  aborted?: boolean;
  message: string;
}

function failureOf(e: unknown, mod: OpenAIModule): Failure {
  if (e instanceof mod.APIConnectionTimeoutError) return { timeout: true, message: e.message };
  if (e instanceof mod.APIUserAbortError) return { aborted: true, message: e.message };
  if (e instanceof mod.APIConnectionError) return { message: `could not be reached: ${(e.cause as Error | undefined)?.message ?? e.message}` };
  if (e instanceof mod.APIError) return { status: e.status, headers: e.headers, message: e.message };
  return { status: 502, message: `answered something that is not a chat completion: ${(e as Error).message}` };
}

class OpenAICompatibleClient implements ModelClient {
  readonly name: string;
  readonly smallName: string;
  readonly contextTokens: number;
  private readonly queue: PQueue;
  private readonly output: StructuredOutput;
  private client?: Promise<{ mod: OpenAIModule; api: OpenAI }>;

  constructor(private readonly settings: ModelSettings, private readonly log: Logger) {
    this.name = settings.model;
    this.smallName = settings.smallModel;
    this.contextTokens = settings.contextTokens;
    this.queue = new PQueue({ concurrency: settings.concurrency });
    this.output = new StructuredOutput(settings.structuredOutput);
  }

  private api(): Promise<{ mod: OpenAIModule; api: OpenAI }> {
    this.client ??= import('openai').then((mod) => ({
      mod,
      api: new mod.OpenAI({
        baseURL: this.settings.baseUrl,
        // Servers without keys (Ollama, llama.cpp) ignore the header; the client needs a value.
        apiKey: this.settings.apiKey || 'none',
        adminAPIKey: null,
        organization: null,
        project: null,
        webhookSecret: null,
        maxRetries: 0,
        timeout: this.settings.timeoutMs,
        logLevel: 'off',
      }),
    }));
    return this.client;
  }

  async complete(request: Request): Promise<ModelCompletion> {
    const { mod, api } = await this.api();
    const model = request.small ? this.smallName : this.name;
    let attempt = 0;
    for (;;) {
      const means = this.output.means;
      try {
        return await this.queue.add(() => this.once(api, model, request, means), { signal: request.signal });
      } catch (e) {
        if (e instanceof TrawlError) throw e;
        const f: Failure = request.signal?.aborted ? { aborted: true, message: 'aborted' } : failureOf(e, mod);
        if (f.status === 400 && request.output && this.output.stepDown(means)) {
          this.log.warn({ means, status: 400, err: f.message }, `[llm] the server refused ${means} structured output; trying the next means`);
          continue;
        }
        if (f.timeout) throw new TrawlError('GATEWAY_TIMEOUT', `[llm] [${NAME}] the model did not answer within ${this.settings.timeoutMs} ms (TRAWL_MODEL_TIMEOUT_MS).`);
        if (f.aborted) throw new TrawlError('GATEWAY_TIMEOUT', `[llm] [${NAME}] the model call was stopped: the request's time ran out.`);
        const status = f.status === undefined ? 'no answer' : `HTTP ${f.status}`;
        if (retryableStatus(f.status) && attempt < this.settings.maxRetries) {
          const asked = retryAfterMs(f.headers);
          if (asked !== undefined && asked > this.settings.retryMaxWaitMs) {
            throw new TrawlError('UPSTREAM_ERROR', `[llm] [${NAME}] the model server is busy (${status}) and asks to wait ${Math.ceil(asked / 1000)} s, longer than TRAWL_MODEL_RETRY_MAX_WAIT_MS (${this.settings.retryMaxWaitMs} ms).`);
          }
          const wait = Math.min(asked ?? backoffMs(attempt), this.settings.retryMaxWaitMs);
          this.log.warn({ status: f.status, attempt: attempt + 1, waitMs: wait }, '[llm] model call failed; retrying');
          attempt++;
          await sleep(wait, request.signal).catch(() => {
            throw new TrawlError('GATEWAY_TIMEOUT', `[llm] [${NAME}] the request's time ran out while waiting to retry the model (${status}).`);
          });
          continue;
        }
        const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
        const hint = f.status === 401 || f.status === 403 ? ' (check OPENAI_API_KEY)' : f.status === 404 ? ` (check MODEL_NAME "${model}" and OPENAI_BASE_URL)` : '';
        throw new TrawlError('UPSTREAM_ERROR', `[llm] [${NAME}] the model server failed${tries}: ${status}${hint}: ${f.message.slice(0, 300)}`, {
          retryable: retryableStatus(f.status),
        });
      }
    }
  }

  /** One attempt. @throws the client's errors as they are (complete() maps them) */
  private async once(api: OpenAI, model: string, request: Request, means: OutputMeans): Promise<ModelCompletion> {
    const shaped = request.output ? structuredRequest(request.output, means, request.messages) : { messages: request.messages };
    const body: Record<string, unknown> = { model, messages: shaped.messages, temperature: 0 };
    if (request.tools?.length) body.tools = request.tools;
    if (request.maxTokens) body.max_tokens = request.maxTokens;
    if (shaped.responseFormat) body.response_format = shaped.responseFormat;
    const res = (await api.chat.completions.create(body as never, { signal: request.signal })) as OpenAI.Chat.Completions.ChatCompletion;
    const choice = res?.choices?.[0];
    if (!choice?.message) throw new TrawlError('UPSTREAM_ERROR', `[llm] [${NAME}] the model server answered without a message.`);
    const calls = (choice.message.tool_calls ?? []).filter((c) => c.type === 'function');
    const message: ModelMessage = {
      role: 'assistant',
      content: choice.message.content ?? null,
      ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.function.name, arguments: c.function.arguments ?? '' } })) } : {}),
    };
    const u = res.usage;
    const estimated = !u || typeof u.prompt_tokens !== 'number';
    return {
      message,
      model,
      finishReason: choice.finish_reason ?? 'stop',
      usage: estimated
        ? { promptTokens: estimateTokens(shaped.messages), completionTokens: estimateTokens([message]) }
        : { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens ?? 0 },
      ...(estimated ? { estimated: true } : {}),
    };
  }
}

export default defineModelProvider({
  name: NAME,
  configured: (config) => config.llm !== undefined,
  open(config, log) {
    if (!config.llm) throw new TrawlError('BACKEND_UNAVAILABLE', `[llm] [${NAME}] no model is configured (OPENAI_BASE_URL or OLLAMA_BASE_URL).`);
    return new OpenAICompatibleClient(config.llm, log);
  },
});
