/**
 * The `summary` format (compat.md §2.1): a few sentences about the page in `summary`. With a model
 * (`PluginContext.model`) a map-reduce summary over chunks (formats/model/ask.ts); with none, an
 * extractive summary of the main content (core/text/extract.ts: the best sentences in page order),
 * `metadata.modelUsed: false` and a warning. Null when the page has no prose.
 */
import { defineFormat } from '../core/plugin.ts';
import { extractiveSummary } from '../core/text/extract.ts';
import { modelMetadata, noModelWarning, pageMarkdown } from './model/common.ts';
import { modelSummary } from './model/ask.ts';

export default defineFormat({
  name: 'summary',
  needs: ['markdown'],
  async produce(input, _options, ctx) {
    const markdown = pageMarkdown(input);
    if (ctx.model) return { summary: await modelSummary(ctx.model, ctx, markdown), metadata: modelMetadata(ctx) };
    return {
      summary: extractiveSummary(markdown),
      metadata: modelMetadata(ctx),
      warning: noModelWarning('summary', 'the summary is the page\'s own most representative sentences (extractive)'),
    };
  },
});
