/**
 * The `markdown` format (the default format, compat.md §2.1). Uses the parser's markdown when it made
 * one (PDF, spreadsheets), else converts the cleaned HTML (`FormatInput.cleanedHtml()`, which applies
 * onlyMainContent / includeTags / excludeTags) with turndown (formats/markdown/convert.ts).
 * `removeBase64Images` (interface.md, default true) replaces data: image URLs by a placeholder.
 */
import { defineFormat } from '../core/plugin.ts';
import { TrawlError } from '../core/errors.ts';

export default defineFormat({
  name: 'markdown',
  async produce(input, _options, ctx) {
    const removeBase64Images = input.options.removeBase64Images ?? true;
    if (typeof input.parsed.markdown === 'string') {
      const { removeBase64FromMarkdown } = await import('./markdown/text.ts');
      return { markdown: removeBase64Images ? removeBase64FromMarkdown(input.parsed.markdown) : input.parsed.markdown };
    }
    const html = input.cleanedHtml() ?? '';
    if (ctx.signal.aborted) throw new TrawlError('SCRAPE_TIMEOUT', '[markdown] the scrape deadline passed before conversion', { retryable: true });
    const { htmlToMarkdown } = await import('./markdown/convert.ts');
    const started = performance.now();
    const markdown = htmlToMarkdown(html, { removeBase64Images });
    ctx.log.debug({ ms: Math.round(performance.now() - started), htmlChars: html.length, markdownChars: markdown.length }, 'converted to markdown');
    return { markdown };
  },
});
