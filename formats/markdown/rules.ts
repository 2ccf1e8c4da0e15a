/**
 * Element rules: what one element becomes given its converted content. ATX headings, `-` bullets
 * indented to the content column, `ol start`, GFM task list items, `~~strike~~`, `*em*`, `**strong**`,
 * code (code.ts), tables (tables.ts), inline links without titles (empty links dropped, a link wrapping
 * blocks becomes one line), `![alt](src)` images with base64 placeholders, `br` as two spaces and a
 * newline, `> ` quotes, `---` rules; scripts, styles, media and form widgets vanish; unknown elements
 * keep their content (blocks on their own lines). Newlines around a result follow turndown's contract:
 * leading/trailing `\n`s are merged with the neighbours' (at most one blank line), see render.ts.
 */
import { isTag, type Element } from '../../core/html/dom.ts';
import { BLOCK, REMOVE, RULED } from './tags.ts';
import { codeBlock, codeSpan } from './code.ts';
import { tableBlock, tableCaption, tableCell, tableInfo, tableRow, type TableCache } from './tables.ts';
import { BASE64_PLACEHOLDER, encodeUrl, oneLine } from './text.ts';

/** Where an element sits: its parent scope (null above the converted nodes) and table context. */
export interface Scope {
  el: Element | null;
  up: Scope | null;
  /** Nearest `<table>` at or above this scope. */
  table: Element | null;
  /** Whether the nearest `td`/`th` at or above this scope belongs to a data (GFM) table. */
  dataCell: boolean;
}

/** Per-conversion state plus the position of the element being converted among its siblings. */
export interface RuleContext {
  removeBase64: boolean;
  tables: TableCache;
  /** Text of each converted `<caption>`. */
  captions: Map<Element, string>;
  /** Index of this `li` among the `li` children of its parent. */
  liIndex: number;
  /** Whether this cell is its row's first cell. */
  firstCell: boolean;
  /** Whether a sibling (element or non-empty text) follows. */
  hasNext: boolean;
}

function trimNewlines(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) === 10) a++;
  while (b > a && s.charCodeAt(b - 1) === 10) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

function link(el: Element, content: string): string {
  const href = el.attribs.href?.trim();
  if (!href) return content;
  let text = content.includes('\n') ? oneLine(content) : content.trim();
  // Alt-less thumbnails next to link text (teaser cards) add nothing but a URL.
  if (text.includes('![](')) {
    const withoutThumbs = text.replace(/!\[\]\([^)]*\)/g, '').trim();
    if (withoutThumbs) text = withoutThumbs;
  }
  if (!text) return '';
  return '[' + text + '](' + encodeUrl(href) + ')';
}

function image(el: Element, removeBase64: boolean): string {
  const src = el.attribs.src?.trim();
  if (!src) return '';
  const alt = (el.attribs.alt ?? '').replace(/\s+/g, ' ').trim().replace(/([[\]\\])/g, '\\$1');
  if (/^data:/i.test(src)) return removeBase64 ? `![${alt}](${BASE64_PLACEHOLDER})` : `![${alt}](${src.replace(/\s/g, '')})`;
  return `![${alt}](${encodeUrl(src)})`;
}

function listItem(content: string, parent: Element | null, ctx: RuleContext): string {
  let prefix = '- ';
  if (parent?.name === 'ol') {
    const start = parseInt(parent.attribs.start ?? '', 10);
    prefix = (Number.isFinite(start) ? start : 1) + ctx.liIndex + '. ';
  }
  const isParagraph = content.endsWith('\n');
  const body = trimNewlines(content).replace(/^\[([ x])\]\s+/, '[$1] ') + (isParagraph ? '\n' : '');
  if (!body.trim()) return '';
  const indented = body.includes('\n') ? body.replace(/\n/g, '\n' + ' '.repeat(prefix.length)) : body;
  return prefix + indented + (ctx.hasNext ? '\n' : '');
}

function list(el: Element, content: string, parent: Element | null): string {
  if (parent?.name === 'li') {
    const kids = parent.children;
    let last = kids.length - 1;
    while (last >= 0 && !isTag(kids[last])) last--;
    if (kids[last] === el) return '\n' + content;
  }
  return '\n\n' + content + '\n\n';
}

function heading(el: Element, content: string, inDataCell: boolean): string {
  const text = content.replace(/\s*\n+\s*/g, ' ').trim();
  if (!text) return '';
  if (inDataCell) return text;
  return '\n\n' + '#'.repeat(Number(el.name.charAt(1))) + ' ' + text + '\n\n';
}

function firstCaption(table: Element): Element | undefined {
  for (const c of table.children) if (isTag(c) && c.name === 'caption') return c;
  return undefined;
}

/**
 * When `applyRule` would return the content unchanged with `n` newlines on each side (paragraphs,
 * unknown elements, layout-table parts), `n`; else -1. Lets the renderer skip building the string.
 */
export function wrapPad(el: Element, flags: number, parent: Scope, ctx: RuleContext): number {
  if (!(flags & RULED)) return flags & REMOVE ? -1 : flags & BLOCK ? 2 : 0;
  switch (el.name) {
    case 'p': return 2;
    case 'thead': case 'tbody': case 'tfoot': return parent.table ? 0 : -1;
    case 'td': case 'th': case 'caption': return !parent.table || tableInfo(parent.table, ctx.tables).layout ? 2 : -1;
    case 'tr': return !parent.table || tableInfo(parent.table, ctx.tables).layout ? 0 : -1;
    case 'table': return tableInfo(el, ctx.tables).layout ? 2 : -1;
  }
  return -1;
}

/**
 * Markdown of one non-blank element.
 * @param flags its tag flags (tags.ts)
 * @param content the element's children, converted and joined
 * @param parent the scope of the element's parent
 */
export function applyRule(el: Element, flags: number, content: string, parent: Scope, ctx: RuleContext): string {
  if (!(flags & RULED)) return flags & REMOVE ? '' : flags & BLOCK ? '\n\n' + content + '\n\n' : content;
  switch (el.name) {
    case 'p': return '\n\n' + content + '\n\n';
    case 'a': return link(el, content);
    case 'em': case 'i': return content.trim() ? '*' + content + '*' : '';
    case 'strong': case 'b': return content.trim() ? '**' + content + '**' : '';
    case 'code': return codeSpan(content);
    case 'li': return listItem(content, parent.el, ctx);
    case 'ul': case 'ol': return list(el, content, parent.el);
    case 'br': return '  \n';
    case 'img': return image(el, ctx.removeBase64);
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return heading(el, content, parent.dataCell);
    case 'pre': return codeBlock(el, parent.el, parent.up?.el ?? null, parent.dataCell);
    case 'td': case 'th': return tableCell(el, content, parent.table, parent.el, ctx.firstCell, ctx.tables);
    case 'tr': return tableRow(el, content, parent.table, ctx.tables);
    case 'thead': case 'tbody': case 'tfoot': return parent.table ? content : tableBlock(el, content, undefined, ctx.tables);
    case 'caption': return tableCaption(content, parent.table, ctx.tables);
    case 'table': {
      const cap = firstCaption(el);
      const text = cap && ctx.captions.get(cap)?.replace(/\s+/g, ' ').trim();
      return tableBlock(el, content, text || undefined, ctx.tables);
    }
    case 'blockquote': return '\n\n' + trimNewlines(content).replace(/^/gm, '> ') + '\n\n';
    case 'hr': return '\n\n---\n\n';
    case 'del': case 's': case 'strike': return content.trim() ? '~~' + content + '~~' : content;
    case 'input':
      if (el.attribs.type?.toLowerCase() === 'checkbox' && parent.el?.name === 'li') return (el.attribs.checked !== undefined ? '[x]' : '[ ]') + ' ';
      return content;
  }
  return content;
}
