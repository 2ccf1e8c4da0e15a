/**
 * The `highlights` format (compat.md §2.1): `{type: 'highlights', query, mode?}` -> `highlights`, a
 * string (the SDK's Document type) holding one highlight per line. With a model, the passages it
 * picks (`directQuote`: word for word; `freeform`, the default: possibly shortened); with none, the
 * page's sentences that best match the query (BM25, at most 3, page order), quoted as the page
 * states them; null when none matches; `metadata.modelUsed: false` and a warning.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineFormat } from '../core/plugin.ts';
import { bestSentences } from '../core/text/extract.ts';
import { modelMetadata, noModelWarning, pageMarkdown } from './model/common.ts';
import { modelHighlights } from './model/ask.ts';

const Options = Type.Object(
  { query: Type.String({ minLength: 1, maxLength: 10_000 }), mode: Type.Optional(Type.Union([Type.Literal('freeform'), Type.Literal('directQuote')])) },
  { additionalProperties: false },
);

export default defineFormat<Static<typeof Options>>({
  name: 'highlights',
  stringForm: false,
  options: Options,
  needs: ['markdown'],
  async produce(input, options, ctx) {
    const markdown = pageMarkdown(input);
    if (ctx.model) {
      const text = await modelHighlights(ctx.model, ctx, markdown, options.query, options.mode === 'directQuote');
      return { highlights: text || null, metadata: modelMetadata(ctx) };
    }
    const found = bestSentences(markdown, options.query);
    return {
      highlights: found.length ? found.join('\n') : null,
      metadata: modelMetadata(ctx),
      warning: noModelWarning('highlights', 'the highlights are the sentences of the page that best match the query, quoted'),
    };
  },
});
