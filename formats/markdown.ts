/**
 * The `markdown` format (the default format, compat.md §2.1). Uses the parser's markdown when it made
 * one (PDF, spreadsheets), else converts the cleaned page (`FormatInput.cleanedNodes()`, which applies
 * onlyMainContent / includeTags / excludeTags) with Trawl's own converter (formats/markdown/render.ts),
 * straight from the cleaner's tree: no serialize and re-parse.
 * `removeBase64Images` (interface.md, default true) replaces data: image URLs by a placeholder.
 * `onlyCleanContent` (interface.md) then strips residual boilerplate (formats/model/clean.ts).
 * When `onlyMainContent` (on by default) leaves nothing of a page that has markup, the result says so in
 * a `warning` (NO_MAIN_CONTENT) instead of an unexplained empty string.
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
  async produce(input, _options, ctx) {
    const out = convert(input, ctx);
    const result: { markdown: string; warning?: string } = input.options.onlyCleanContent ? await cleanContent(out, ctx) : { markdown: out };
    if (!result.markdown.trim() && lostToMainContent(input)) result.warning = [result.warning, NO_MAIN_CONTENT].filter(Boolean).join(' ');
    return result;
  },
});

/** The warning of a page whose main content came out empty (see lostToMainContent). */
const NO_MAIN_CONTENT =
  'onlyMainContent found no main content on this page: it holds no text beyond site navigation, header and footer, or a script that did not run renders it. Send onlyMainContent: false for the whole page, or use the browser engine (waitFor) for a scripted page.';

/**
 * Whether an empty markdown is due to `onlyMainContent`: it was on, the markdown came from the cleaned
 * HTML page (not a parser's own markdown), and the page as fetched has a body with markup in it.
 */
function lostToMainContent(input: FormatInput): boolean {
  if (input.options.onlyMainContent === false || typeof input.parsed.markdown === 'string') return false;
  const raw = input.rawHtml();
  return raw !== undefined && /<body[\s>][\s\S]*?<\w/i.test(raw);
}

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
