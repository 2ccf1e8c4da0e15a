/**
 * Reference copy of Trawl's former turndown-based converter (formats/markdown/convert.ts before the own
 * DOM walker in formats/markdown/render.ts), kept only for bench/markdown/compare.ts. Not used in
 * production. Original header follows.
 *
 * HTML -> markdown with turndown: ATX headings, `-` bullets with correct nesting indents, fenced code
 * with languages (code.ts), GFM tables (tables.ts), `~~strike~~`, GFM task lists (turndown-plugin-gfm),
 * inline links without titles, `![alt](src)` images, and a tidy pass (text.ts). Empty links and images
 * without `src` are dropped; a link wrapping blocks (a teaser card) becomes one line.
 * `removeBase64Images` (interface.md, default true) replaces data: image URLs by a placeholder.
 *
 * Speed: turndown parses with domino; ~2-7 MiB/s here. The input is expected to come from `cleanHtml`
 * (nesting flattened); other input that overflows the stack is flattened and converted again.
 */
import TurndownService from 'turndown';
import { taskListItems } from 'turndown-plugin-gfm';
import { addTableRules, asNode, inDataCell } from './tables.ts';
import { addCodeRules } from './code.ts';
import { BASE64_PLACEHOLDER, encodeUrl, escapeMarkdown, oneLine, tidyMarkdown } from '../../../formats/markdown/text.ts';
import { normalizeSpace, parseHtml, serializeHtml, textOf } from '../../../parsers/html/dom.ts';
import { flattenDeepNesting } from '../../../parsers/html/basic-clean.ts';


export interface MarkdownOptions {
  /** Replace `data:` image URLs by `<Base64-Image-Removed>` (alt text kept). Default true. */
  removeBase64Images?: boolean;
}

function createService(removeBase64: boolean): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    linkStyle: 'inlined',
    hr: '---',
  });
  service.use(taskListItems);
  service.escape = escapeMarkdown;
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'video', 'audio', 'canvas', 'svg', 'head', 'title', 'select', 'textarea', 'dialog'] as never);
  addTableRules(service);
  addCodeRules(service);
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement(content, node) {
      const text = content.replace(/\s*\n+\s*/g, ' ').trim();
      if (!text) return '';
      if (inDataCell(asNode(node))) return text;
      const level = Number(node.nodeName.charAt(1));
      return '\n\n' + '#'.repeat(level) + ' ' + text + '\n\n';
    },
  });
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A',
    replacement(content, node) {
      const href = asNode(node).getAttribute('href')?.trim();
      if (!href) return content;
      let text = content.includes('\n') ? oneLine(content) : content.trim();
      // Alt-less thumbnails next to link text (teaser cards) add nothing but a URL.
      const withoutThumbs = text.replace(/!\[\]\([^)]*\)/g, '').trim();
      if (withoutThumbs) text = withoutThumbs;
      if (!text) return '';
      return '[' + text + '](' + encodeUrl(href) + ')';
    },
  });
  service.addRule('image', {
    filter: 'img',
    replacement(_content, node) {
      const el = asNode(node);
      const src = el.getAttribute('src')?.trim();
      if (!src) return '';
      const alt = (el.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim().replace(/([[\]\\])/g, '\\$1');
      if (/^data:/i.test(src)) return removeBase64 ? `![${alt}](${BASE64_PLACEHOLDER})` : `![${alt}](${src.replace(/\s/g, '')})`;
      return `![${alt}](${encodeUrl(src)})`;
    },
  });
  service.addRule('listItem', {
    filter: 'li',
    replacement(content, node, options) {
      let prefix = options.bulletListMarker + ' ';
      const parent = asNode(node).parentNode;
      if (parent?.nodeName === 'OL') {
        const start = parseInt(parent.getAttribute('start') ?? '', 10);
        const items = Array.from(parent.children).filter((c) => c.nodeName === 'LI');
        prefix = (Number.isFinite(start) ? start : 1) + items.indexOf(asNode(node)) + '. ';
      }
      const isParagraph = /\n$/.test(content);
      const body = content.replace(/^\n+/, '').replace(/\n+$/, '').replace(/^\[([ x])\]\s+/, '[$1] ') + (isParagraph ? '\n' : '');
      if (!body.trim()) return '';
      const indented = body.replace(/\n/g, '\n' + ' '.repeat(prefix.length));
      return prefix + indented + (node.nextSibling ? '\n' : '');
    },
  });
  service.addRule('strikethrough', {
    filter: ['del', 's', 'strike'] as never,
    replacement: (content) => (content.trim() ? '~~' + content + '~~' : content),
  });
  return service;
}

const services = new Map<boolean, TurndownService>();

function serviceFor(removeBase64: boolean): TurndownService {
  let s = services.get(removeBase64);
  if (!s) {
    s = createService(removeBase64);
    services.set(removeBase64, s);
  }
  return s;
}

/**
 * Converts an HTML fragment or page to clean markdown.
 * @param html cleaned HTML (from `cleanHtml`); any HTML is accepted
 * @returns markdown text without trailing newline; '' for empty input
 */
export function turndownToMarkdown(html: string, opts: MarkdownOptions = {}): string {
  if (!html.trim()) return '';
  const service = serviceFor(opts.removeBase64Images ?? true);
  let md: string;
  try {
    md = service.turndown(html);
  } catch {
    // Stack overflow on nesting the cleaner did not flatten, or markup turndown chokes on: flatten
    // harder and retry, and as a last resort return the plain text rather than fail the scrape.
    const doc = parseHtml(html);
    flattenDeepNesting(doc, 64);
    try {
      md = service.turndown(serializeHtml(doc));
    } catch {
      md = escapeMarkdown(normalizeSpace(textOf(doc)));
    }
  }
  return tidyMarkdown(md);
}
