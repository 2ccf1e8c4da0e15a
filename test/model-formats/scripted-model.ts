/**
 * A scripted `LanguageModel` (core/plugin.ts) for tests of the model paths of the formats: it
 * records each request and answers from a script (a function of the request), counting calls.
 * A fake for what cannot run offline (a model server); the real provider is plugins/llm.
 */
import type { LanguageModel, ModelRequest } from '../../core/plugin.ts';

export interface ScriptedModel extends LanguageModel {
  calls: (ModelRequest & { schema?: Record<string, unknown> })[];
}

/**
 * @param answer text (chat) or value (json) for a request
 * @param contextTokens the model's context size (small values force chunking)
 */
export function scriptedModel(answer: (req: ModelRequest & { schema?: Record<string, unknown> }, call: number) => unknown, contextTokens = 8_192): ScriptedModel {
  const calls: ScriptedModel['calls'] = [];
  const usage = { promptTokens: 10, completionTokens: 5 };
  return {
    name: 'scripted',
    contextTokens,
    calls,
    async chat(req) {
      calls.push(req);
      return { message: { role: 'assistant', content: String(answer(req, calls.length - 1)) }, usage };
    },
    async json<T>(req: ModelRequest & { schema: Record<string, unknown> }) {
      calls.push(req);
      return { value: answer(req, calls.length - 1) as T, usage };
    },
  };
}
