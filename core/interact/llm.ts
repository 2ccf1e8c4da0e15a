/**
 * A minimal client of an OpenAI-compatible chat completions API (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
 * `MODEL_NAME`), with tool calling, for interact prompts. One POST per turn to
 * `<base>/chat/completions`; failures are UPSTREAM_ERROR (502) naming the provider's answer.
 */
import { TrawlError } from '../errors.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/**
 * One chat completion turn.
 * @param timeoutMs time allowed for the call, ms
 * @returns the assistant message (content and/or tool calls) and tokens used
 * @throws TrawlError UPSTREAM_ERROR when the provider fails or answers nonsense; GATEWAY_TIMEOUT past the time
 */
export async function chat(
  llm: LlmConfig,
  messages: ChatMessage[],
  tools: ToolSpec[],
  timeoutMs: number,
): Promise<{ message: ChatMessage; tokens: number }> {
  let res: Response;
  try {
    res = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
      body: JSON.stringify({ model: llm.model, messages, tools: tools.length ? tools : undefined, temperature: 0 }),
      signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
    });
  } catch (e) {
    if ((e as Error).name === 'TimeoutError') throw new TrawlError('GATEWAY_TIMEOUT', `[llm] the model did not answer within ${timeoutMs} ms`);
    throw new TrawlError('UPSTREAM_ERROR', `[llm] the LLM provider could not be reached: ${(e as Error).message}`, { cause: e });
  }
  const text = await res.text();
  if (!res.ok) throw new TrawlError('UPSTREAM_ERROR', `[llm] the LLM provider answered HTTP ${res.status}: ${text.slice(0, 300)}`);
  let body: { choices?: { message?: ChatMessage }[]; usage?: { total_tokens?: number } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new TrawlError('UPSTREAM_ERROR', '[llm] the LLM provider answered with something other than JSON');
  }
  const message = body.choices?.[0]?.message;
  if (!message) throw new TrawlError('UPSTREAM_ERROR', '[llm] the LLM provider answered without a message');
  return { message: { role: 'assistant', content: message.content ?? null, tool_calls: message.tool_calls }, tokens: body.usage?.total_tokens ?? 0 };
}
