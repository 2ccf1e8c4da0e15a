/**
 * The model paths of the text formats (summary, question, query, highlights; issue 18 scope 2), on
 * `PluginContext.model`. Long pages are cut into chunks within the model's context
 * (core/text/chunks.ts): a summary is map-reduced (each chunk summarized, then the summaries
 * summarized together); a question or highlights query reads the chunks most relevant to it by BM25
 * (as many as fit one call), best first.
 */
import type { LanguageModel, PluginContext } from '../../core/plugin.ts';
import { chunkBudget, chunkMarkdown, estimateTokens } from '../../core/text/chunks.ts';
import { bm25Scores } from '../../core/text/bm25.ts';
import { RESERVE_TOKENS } from './common.ts';

async function say(model: LanguageModel, ctx: PluginContext, purpose: string, system: string, user: string): Promise<string> {
  const { message } = await model.chat({ purpose, signal: ctx.signal, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] });
  return (message.content ?? '').trim();
}

/** A summary of the page by the model: one call per chunk, then one over the chunk summaries. */
export async function modelSummary(model: LanguageModel, ctx: PluginContext, markdown: string): Promise<string> {
  const system = 'Summarize the page content the user gives in a few sentences. Answer with the summary only.';
  const chunks = chunkMarkdown(markdown, chunkBudget(model.contextTokens, RESERVE_TOKENS));
  if (chunks.length === 1) return say(model, ctx, 'format:summary', system, chunks[0]);
  const parts: string[] = [];
  for (const c of chunks) parts.push(await say(model, ctx, 'format:summary', system, c));
  return say(model, ctx, 'format:summary', 'These are summaries of consecutive parts of one page. Combine them into one summary of a few sentences. Answer with the summary only.', parts.join('\n\n'));
}

/** The page's chunks most relevant to `query`, best first, as many as fit one call. */
export function relevantContext(model: LanguageModel, markdown: string, query: string): string {
  const budget = chunkBudget(model.contextTokens, RESERVE_TOKENS);
  const chunks = chunkMarkdown(markdown, Math.max(512, Math.floor(budget / 4)));
  if (chunks.length === 1) return chunks[0];
  const scores = bm25Scores(query, chunks);
  const order = chunks.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
  const kept: string[] = [];
  let used = 0;
  for (const i of order) {
    const t = estimateTokens(chunks[i]);
    if (used + t > budget) break;
    kept.push(chunks[i]);
    used += t;
  }
  return kept.join('\n\n---\n\n');
}

/** The model's answer to a question about the page; null when it says the page does not answer it. */
export async function modelAnswer(model: LanguageModel, ctx: PluginContext, markdown: string, question: string, purpose: string, directQuote = false): Promise<string | null> {
  const system =
    'Answer the question using only the page content given. ' +
    (directQuote ? 'Answer with an exact quote from the page, word for word. ' : '') +
    'If the page does not answer it, reply exactly: NOT_FOUND';
  const answer = await say(model, ctx, purpose, system, `Page content:\n\n${relevantContext(model, markdown, question)}\n\nQuestion: ${question}`);
  return !answer || answer === 'NOT_FOUND' ? null : answer;
}

/** Highlights of the page for `query` by the model: one per line. */
export async function modelHighlights(model: LanguageModel, ctx: PluginContext, markdown: string, query: string, directQuote: boolean): Promise<string> {
  const system =
    'From the page content given, pick the passages most relevant to the query, one per line, at most five. ' +
    (directQuote ? 'Each must be an exact quote from the page, word for word.' : 'You may shorten them.') +
    ' If nothing is relevant, reply with an empty answer.';
  return say(model, ctx, 'format:highlights', system, `Page content:\n\n${relevantContext(model, markdown, query)}\n\nQuery: ${query}`);
}
