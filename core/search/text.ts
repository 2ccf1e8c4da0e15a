/**
 * Text helpers of search: markdown to plain text for the local index, HTML snippets of providers to
 * plain text, choosing the most query-relevant of several snippets (highlights), and the relative
 * date text of news items ("3 days ago").
 */
import { DomUtils, parseDocument } from 'htmlparser2';

/**
 * Plain text of a markdown document: link and image syntax, emphasis, headings markers, table pipes,
 * code fences and HTML tags are removed; paragraphs stay separated by blank lines.
 */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n/g, '\n')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
    .replace(/<[^>]{1,200}>/g, ' ')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '')
    .replace(/\|/g, ' ')
    .replace(/(\*\*|__|~~|`)/g, '')
    // Lone emphasis marks; with the neighbours in look-arounds the scan jumps between `*` and `_`.
    .replace(/(?<=^|\s)[*_](?=\S)/g, '')
    .replace(/(?<=\S)[*_](?=\s|$|[.,;:!?])/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n\s*/g, '\n\n')
    .trim();
}

/** Plain text of an HTML fragment (provider snippets carry `<strong>` and entities). */
export function htmlToText(html: string | undefined | null): string {
  if (!html) return '';
  return DomUtils.textContent(parseDocument(html)).replace(/\s+/g, ' ').trim();
}

/** Lower-case words of a query, without operators, short words and negated words. */
export function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}:-]+/u)
    .filter((w) => w.length > 1 && !w.startsWith('-') && !w.includes(':') && w !== 'or' && w !== 'and')
    .map((w) => w.replace(/-/g, ''));
}

/** How many distinct query words a text contains (prefix match, so "tide" finds "tides"). */
export function coverage(text: string, words: string[]): number {
  const lower = text.toLowerCase();
  return new Set(words.filter((w) => lower.includes(w.slice(0, Math.max(3, w.length - 2))))).size;
}

/**
 * The most query-relevant of several snippets (the first one wins ties, so the provider's own order
 * is kept). Used for highlights when a provider offers extra snippets.
 */
export function bestSnippet(snippets: string[], query: string): string {
  const words = queryWords(query);
  let best = snippets[0] ?? '';
  let score = coverage(best, words);
  for (const s of snippets.slice(1)) {
    const c = coverage(s, words);
    if (c > score) [best, score] = [s, c];
  }
  return best;
}

/** Cuts text to at most `max` characters on a word boundary, adding an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')} …`;
}

/** "5 minutes ago", "3 hours ago", "2 days ago", "4 months ago" (English, like search engines). */
export function relativeDate(date: Date, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - date.getTime()) / 1000));
  const units: [number, string][] = [[31_536_000, 'year'], [2_592_000, 'month'], [604_800, 'week'], [86_400, 'day'], [3_600, 'hour'], [60, 'minute']];
  for (const [secs, name] of units) {
    const n = Math.floor(s / secs);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** A date from provider or metadata text, or undefined when it cannot be read. */
export function parseDate(value: unknown): Date | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const d = new Date(typeof v === 'string' ? v.trim().replace(/^(\d{4})\/(\d{2})\/(\d{2})/, '$1-$2-$3') : v);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
