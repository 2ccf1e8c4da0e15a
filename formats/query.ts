/**
 * The `query` format, deprecated alias of `question` (compat.md §2.1): `{type: 'query', prompt,
 * mode?}` -> `answer`. `mode: 'directQuote'` asks the model for a word-for-word quote; the answer
 * with no model is always a quote (formats/question.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineFormat } from '../core/plugin.ts';
import { answerQuestion } from './question.ts';

const Options = Type.Object(
  { prompt: Type.String({ minLength: 1, maxLength: 10_000 }), mode: Type.Optional(Type.Union([Type.Literal('freeform'), Type.Literal('directQuote')])) },
  { additionalProperties: false },
);

export default defineFormat<Static<typeof Options>>({
  name: 'query',
  fields: ['answer'],
  stringForm: false,
  options: Options,
  needs: ['markdown'],
  produce: (input, options, ctx) => answerQuestion(input, options.prompt, ctx, 'query', options.mode === 'directQuote'),
});
