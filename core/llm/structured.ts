/**
 * `LanguageModel.json` over any provider's `complete` (issue 18 scope 1): the answer is asked for as
 * JSON valid against the request's schema, read leniently (core/llm/schema.ts), validated with ajv,
 * and on failure the model gets one repair turn showing its answer and the validation errors (or
 * that it was cut off at the token limit). A second failure is MODEL_OUTPUT_INVALID (502) naming what
 * failed. Every completion, the repair turn included, is reported to `onCompletion` for accounting.
 */
import { TrawlError } from '../errors.ts';
import type { ModelClient, ModelCompletion, ModelMessage, ModelRequest, TokenUsage } from '../plugin.ts';
import { compileSchema, describeErrors, parseModelJson } from './schema.ts';

export type JsonRequest = ModelRequest & { schema: Record<string, unknown>; schemaName?: string };

/** Why an answer is not acceptable, or undefined when it is. */
function problemOf(completion: ModelCompletion, validate: ReturnType<typeof compileSchema>): { problem?: string; value?: unknown } {
  const text = completion.message.content ?? '';
  const cut = completion.finishReason === 'length' ? 'the answer was cut off at the token limit (finish_reason "length"); ' : '';
  if (!text.trim() && completion.message.tool_calls?.length) return { problem: `${cut}the answer was a tool call, not JSON` };
  const parsed = parseModelJson(text);
  if (parsed.error) return { problem: cut + parsed.error };
  if (!validate(parsed.value)) return { problem: `${cut}the JSON does not match the schema: ${describeErrors(validate).join('; ')}` };
  return { value: parsed.value };
}

/**
 * A JSON answer valid against `request.schema`.
 * @param onCompletion told of every completion (for token accounting), before validation
 * @throws TrawlError BAD_REQUEST when the schema itself is invalid; MODEL_OUTPUT_INVALID (502) after
 *         the repair turn; the client's UPSTREAM_ERROR / GATEWAY_TIMEOUT
 */
export async function completeJson<T>(
  client: ModelClient,
  request: JsonRequest,
  onCompletion: (c: ModelCompletion) => Promise<void> | void,
): Promise<{ value: T; usage: TokenUsage }> {
  const validate = compileSchema(request.schema);
  const { schema, schemaName, ...base } = request;
  const output = { type: 'json' as const, schema, name: schemaName ?? 'answer' };
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  let messages: ModelMessage[] = request.messages;
  let problem = '';
  for (let turn = 0; turn < 2; turn++) {
    const completion = await client.complete({ ...base, messages, output });
    await onCompletion(completion);
    usage.promptTokens += completion.usage.promptTokens;
    usage.completionTokens += completion.usage.completionTokens;
    const verdict = problemOf(completion, validate);
    if (verdict.problem === undefined) return { value: verdict.value as T, usage };
    problem = verdict.problem;
    const shorter = completion.finishReason === 'length' ? ' Keep it shorter so that it fits.' : '';
    messages = [
      ...messages,
      { role: 'assistant', content: (completion.message.content ?? '').slice(0, 20_000) },
      { role: 'user', content: `Your answer cannot be used: ${problem}. Answer again with only the corrected JSON, valid against the schema.${shorter}` },
    ];
  }
  throw new TrawlError('MODEL_OUTPUT_INVALID', `[llm] the model's answer for ${request.purpose} is not valid even after a repair turn: ${problem.slice(0, 1000)}`, {
    details: { purpose: request.purpose, problem },
  });
}
