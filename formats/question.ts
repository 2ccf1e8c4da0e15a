/**
 * The `question` format (compat.md §2.1): `{type: 'question', question}` -> `answer`. With a model,
 * its answer from the page's most relevant chunks (formats/model/ask.ts); with none, the passage of
 * the page that best matches the question (BM25, core/text/extract.ts), quoted as the page states
 * it, or null when no passage shares enough of the question's words; `metadata.modelUsed: false`
 * and a warning.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineFormat, type FormatInput, type PluginContext } from '../core/plugin.ts';
import { bestPassage } from '../core/text/extract.ts';
import { modelMetadata, noModelWarning, pageMarkdown } from './model/common.ts';
import { modelAnswer } from './model/ask.ts';

const Options = Type.Object({ question: Type.String({ minLength: 1, maxLength: 10_000 }) }, { additionalProperties: false });

/**
 * Answers a question about the page (shared with the deprecated `query` format).
 * @returns the `answer` field, metadata and, without a model, the warning
 */
export async function answerQuestion(input: FormatInput, question: string, ctx: PluginContext, format: string, directQuote = false): Promise<Record<string, unknown>> {
  const markdown = pageMarkdown(input);
  if (ctx.model) return { answer: await modelAnswer(ctx.model, ctx, markdown, question, `format:${format}`, directQuote), metadata: modelMetadata(ctx) };
  return {
    answer: bestPassage(markdown, question),
    metadata: modelMetadata(ctx),
    warning: noModelWarning(format, 'the answer is the passage of the page that best matches the question, quoted (null when none matches)'),
  };
}

export default defineFormat<Static<typeof Options>>({
  name: 'question',
  fields: ['answer'],
  stringForm: false,
  options: Options,
  needs: ['markdown'],
  produce: (input, options, ctx) => answerQuestion(input, options.question, ctx, 'question'),
});
