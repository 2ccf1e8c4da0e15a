/**
 * A fake OpenAI-compatible chat-completions server (test-only code; an LLM cannot run here): a Bun
 * server on 127.0.0.1 answering `POST /v1/chat/completions`.
 *
 * It checks every request as a strict server would (model, messages and tool-call pairing,
 * `response_format` and its schema, tools, `max_tokens`): a bad request is answered 400 and listed in
 * `violations`. Answers come from a script (`script(...)`, `respond`), each one of: text, JSON, tool
 * calls, a truncated answer (finish_reason "length"), an HTTP error (429 with Retry-After, 5xx, 400),
 * a hang (no answer until the client gives up), a body without usage, or a non-JSON body. Unscripted
 * requests get the default answer: for a JSON request a value generated from its schema
 * (test/fakes/schema-sample.ts); otherwise the interact behaviour (turning `type "x" into #sel`,
 * `click #sel`, `press Key` of the prompt into tool calls on the first turn, then text naming the page
 * title and how many tools ran). It counts calls and tokens (prompt: characters of the request's
 * messages / 4; completion: characters of the answer / 4).
 */
import { checkRequest, type ChatBody } from './openai-chat-check.ts';
import { sampleFromSchema, schemaOfRequest } from './schema-sample.ts';

/** One scripted answer. */
export type FakeAnswer =
  | { content: string }
  | { json: unknown }
  | { toolCalls: { name: string; arguments: unknown }[] }
  | { truncated: string }
  | { status: number; message?: string; retryAfter?: string }
  | { hang: true }
  | { noUsage: string }
  | { raw: string }
  | { after: number; answer: FakeAnswer };

export interface FakeChatOptions {
  /** Answers given in order to the next requests; then `respond`, then the default. */
  script?: FakeAnswer[];
  /** Decides an answer per request (undefined: the default answer). */
  respond?: (body: ChatBody) => FakeAnswer | undefined;
  /** Models the server knows; another is a 404 (default: any). */
  models?: string[];
  /** Bearer key the server requires (default: none checked). */
  apiKey?: string;
  /** Answer 400 to `response_format` of these types, as an older server does. */
  refuse?: ('json_schema' | 'json_object')[];
}

export interface FakeChat {
  /** Base URL to use as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  /** Every request, in order (refused ones included). */
  requests: { headers: Headers; body: any }[];
  /** Problems found in requests (each also answered 400). */
  violations: string[];
  /** Requests answered with a completion, and their tokens. */
  calls: number;
  /** Most requests the server held at once. */
  maxInFlight: number;
  /** Requests the server holds now (a hang ends when the client aborts it). */
  inFlight: number;
  promptTokens: number;
  completionTokens: number;
  /** Queues answers for the next requests. */
  script(...answers: FakeAnswer[]): void;
  /** Forgets requests, counts, violations and queued answers. */
  reset(): void;
  stop(): void;
}

const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

export function startFakeChat(options: FakeChatOptions = {}): FakeChat {
  const queue: FakeAnswer[] = [...(options.script ?? [])];
  const state = { calls: 0, promptTokens: 0, completionTokens: 0, inFlight: 0, maxInFlight: 0 };
  const requests: FakeChat['requests'] = [];
  const violations: string[] = [];
  let n = 0;
  const error = (status: number, message: string, headers: Record<string, string> = {}) =>
    Response.json({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error' } }, { status, headers });

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      try {
        return await handle(req);
      } finally {
        state.inFlight--;
      }
    },
  });

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') return new Response('not found', { status: 404 });
    let body: ChatBody;
    try {
      body = (await req.json()) as ChatBody;
    } catch {
      violations.push('the body is not JSON');
      return error(400, 'We could not parse the JSON body of your request.');
    }
    requests.push({ headers: req.headers, body });
    if (options.apiKey && req.headers.get('authorization') !== `Bearer ${options.apiKey}`) return error(401, 'Incorrect API key provided.');
    const problems = checkRequest(body);
    if (problems.length) {
      violations.push(...problems);
      return error(400, problems.join('; '));
    }
    if (options.models && !options.models.includes(body.model)) return error(404, `The model \`${body.model}\` does not exist.`);
    const format = (body.response_format as { type?: string } | undefined)?.type;
    if (format && options.refuse?.includes(format as 'json_schema')) return error(400, `response_format ${format} is not supported by this server`);

    let answer = queue.shift() ?? options.respond?.(body) ?? defaultAnswer(body);
    while ('after' in answer) {
      await Bun.sleep(answer.after);
      answer = answer.answer;
    }
    if ('hang' in answer) {
      return new Promise<Response>((resolve) => {
        const done = () => resolve(new Response('gone', { status: 499 }));
        req.signal.addEventListener('abort', done, { once: true });
        setTimeout(done, 120_000).unref?.();
      });
    }
    if ('status' in answer) return error(answer.status, answer.message ?? `HTTP ${answer.status}`, answer.retryAfter ? { 'retry-after': answer.retryAfter } : {});
    if ('raw' in answer) return new Response(answer.raw, { headers: { 'content-type': 'text/html' } });
    let message: Record<string, unknown>;
    let finish = 'stop';
    if ('toolCalls' in answer) {
      message = {
        content: null,
        tool_calls: answer.toolCalls.map((c, i) => ({ id: `call_${n + 1}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
      };
      finish = 'tool_calls';
    } else if ('truncated' in answer) {
      message = { content: answer.truncated };
      finish = 'length';
    } else {
      const content = 'json' in answer ? JSON.stringify(answer.json) : 'noUsage' in answer ? answer.noUsage : answer.content;
      message = { content };
    }
    const promptChars = body.messages.reduce((s, m) => s + (m.content ?? '').length + JSON.stringify(m.tool_calls ?? '').length, 0) +
      JSON.stringify(body.response_format ?? '').length + JSON.stringify(body.tools ?? '').length;
    const completionChars = String(message.content ?? '').length + JSON.stringify(message.tool_calls ?? '').length;
    const usage = { prompt_tokens: tokens(promptChars), completion_tokens: tokens(completionChars), total_tokens: tokens(promptChars) + tokens(completionChars) };
    state.calls++;
    state.promptTokens += usage.prompt_tokens;
    state.completionTokens += usage.completion_tokens;
    return Response.json({
      id: `chatcmpl-${++n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
      ...('noUsage' in answer ? {} : { usage }),
    });
  }
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    requests,
    violations,
    get calls() {
      return state.calls;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    get inFlight() {
      return state.inFlight;
    },
    get promptTokens() {
      return state.promptTokens;
    },
    get completionTokens() {
      return state.completionTokens;
    },
    script: (...answers) => void queue.push(...answers),
    reset() {
      queue.length = 0;
      requests.length = 0;
      violations.length = 0;
      Object.assign(state, { calls: 0, promptTokens: 0, completionTokens: 0, maxInFlight: 0 });
    },
    stop: () => server.stop(true),
  };
}

/** The unscripted answer: a sample of the request's schema for JSON requests, else the interact behaviour. */
function defaultAnswer(body: ChatBody): FakeAnswer {
  const schema = schemaOfRequest(body);
  if (schema) return { json: sampleFromSchema(schema) };
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const prompt = user.split('\n\n--- Current page ---')[0] ?? '';
  const title = /^Title: (.*)$/m.exec(user)?.[1] ?? '';
  const toolResults = body.messages.filter((m) => m.role === 'tool');
  const steps = [...prompt.matchAll(/type "([^"]*)" into (\S+)|click (\S+)|press (\w+)/g)];
  if (toolResults.length === 0 && steps.length > 0 && body.tools?.length) {
    return {
      toolCalls: steps.map((m) =>
        m[1] !== undefined ? { name: 'type', arguments: { text: m[1], selector: m[2] } } : m[3] ? { name: 'click', arguments: { selector: m[3] } } : { name: 'press', arguments: { key: m[4] } },
      ),
    };
  }
  return { content: `The page title is "${title}". Tools run: ${toolResults.length}.` };
}
