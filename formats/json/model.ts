/**
 * The model path of the `json` format (issue 18 scope 1 "long pages"): the page's markdown is cut
 * into chunks within the model's context (core/text/chunks.ts), `model.json` answers each chunk
 * against the schema, and the answers are merged field by field: the first non-null value of a
 * field wins, objects merge recursively, arrays are concatenated and deduplicated (by JSON text).
 */
import type { LanguageModel, PluginContext } from '../../core/plugin.ts';
import { chunkBudget, chunkMarkdown, estimateTokens } from '../../core/text/chunks.ts';
import { RESERVE_TOKENS } from '../model/common.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Merges chunk answers field by field (see the header). */
export function mergeAnswers(a: unknown, b: unknown): unknown {
  if (a === null || a === undefined) return b;
  if (b === null || b === undefined) return a;
  if (Array.isArray(a) && Array.isArray(b)) {
    const seen = new Set<string>();
    return [...a, ...b].filter((x) => {
      const k = JSON.stringify(x);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  if (isObject(a) && isObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = mergeAnswers(a[k], v);
    return out;
  }
  return a;
}

/**
 * The model's JSON answer for the page.
 * @param schema the request's schema, or a free object schema for a prompt alone
 * @returns the merged value and how many chunks were read
 */
export async function modelJson(model: LanguageModel, ctx: PluginContext, markdown: string, schema: Record<string, unknown>, prompt: string | undefined): Promise<{ value: unknown; chunks: number }> {
  const reserve = RESERVE_TOKENS + estimateTokens(JSON.stringify(schema)) + estimateTokens(prompt ?? '');
  const chunks = chunkMarkdown(markdown, chunkBudget(model.contextTokens, reserve));
  const system =
    'Extract information from the page content the user gives, as JSON valid against the schema. ' +
    'Use only what the page states; use null for anything it does not state.' +
    (prompt ? `\n\nInstructions: ${prompt}` : '');
  let value: unknown = null;
  for (const [i, chunk] of chunks.entries()) {
    const part = chunks.length > 1 ? ` (part ${i + 1} of ${chunks.length})` : '';
    const answer = await model.json({
      purpose: 'format:json', signal: ctx.signal, schema, schemaName: 'extract',
      messages: [{ role: 'system', content: system }, { role: 'user', content: `Page content${part}:\n\n${chunk}` }],
    });
    value = mergeAnswers(value, answer.value);
  }
  return { value, chunks: chunks.length };
}
