/**
 * The `markdown` format (the default format, compat.md §2.1). Uses the parser's markdown when it made
 * one (PDF, spreadsheets), else converts the cleaned page (`FormatInput.cleanedNodes()`, which applies
 * onlyMainContent / includeTags / excludeTags) with Trawl's own converter (formats/markdown/render.ts),
 * straight from the cleaner's tree: no serialize and re-parse.
 * `removeBase64Images` (interface.md, default true) replaces data: image URLs by a placeholder.
 * `onlyCleanContent` (interface.md) then strips residual boilerplate (formats/model/clean.ts).
 */
import { defineFormat, type FormatInput, type PluginContext } from '../core/plugin.ts';
import { TrawlError } from '../core/errors.ts';
// Static: the registry already loads this plugin lazily, and a dynamic import per page costs time.
import { nodesToMarkdown } from './markdown/render.ts';
import { removeBase64FromMarkdown } from './markdown/text.ts';
import { cleanContent } from './model/clean.ts';

export default defineFormat({
  name: 'markdown',
  default: true,
  // An unparsed file's base64 text is the parser's markdown (core/pipeline/scrape.ts `parse`).
  unparsed: 'shows',
  pure: true,
  produce(input, _options, ctx) {
    const out = convert(input, ctx);
    return input.options.onlyCleanContent ? cleanContent(out, ctx) : { markdown: out };
  },
});

/** The page as markdown: the parser's when it made one, else converted from the cleaned page. */
function convert(input: FormatInput, ctx: PluginContext): string {
  const removeBase64Images = input.options.removeBase64Images ?? true;
  if (typeof input.parsed.markdown === 'string') {
    return removeBase64Images ? removeBase64FromMarkdown(input.parsed.markdown) : input.parsed.markdown;
  }
  const nodes = input.cleanedNodes() ?? [];
  if (ctx.signal.aborted) throw new TrawlError('SCRAPE_TIMEOUT', '[markdown] the scrape deadline passed before conversion', { retryable: true });
  const started = performance.now();
  const markdown = nodesToMarkdown(nodes, { removeBase64Images });
  ctx.log.debug({ ms: Math.round(performance.now() - started), markdownChars: markdown.length }, 'converted to markdown');
  return markdown;
}
