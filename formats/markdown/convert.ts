/**
 * HTML -> markdown, the public entry: parses with htmlparser2 (core/html/dom.ts) and converts the
 * DOM with Trawl's own converter (render.ts; rules in rules.ts, tables.ts, code.ts, text.ts): ATX
 * headings, `-` bullets with correct nesting indents, fenced code with languages, GFM tables and task
 * lists, `~~strike~~`, inline links without titles, `![alt](src)` images, and a tidy pass. Empty links
 * and images without `src` are dropped; a link wrapping blocks (a teaser card) becomes one line.
 * `removeBase64Images` (interface.md, default true) replaces data: image URLs by a placeholder.
 *
 * Speed: no second DOM (turndown + domino before); iterative, so any nesting depth converts. Callers
 * holding a domhandler DOM already can skip the parse with `nodesToMarkdown`.
 */
import { parseHtml } from '../../core/html/dom.ts';
import { nodesToMarkdown, type MarkdownOptions } from './render.ts';

export { nodesToMarkdown, type MarkdownOptions };

/**
 * Converts an HTML fragment or page to clean markdown.
 * @param html cleaned HTML (from `cleanHtml`); any HTML is accepted
 * @returns markdown text without trailing newline; '' for empty input
 */
export function htmlToMarkdown(html: string, opts: MarkdownOptions = {}): string {
  if (!html.trim()) return '';
  return nodesToMarkdown(parseHtml(html), opts);
}
