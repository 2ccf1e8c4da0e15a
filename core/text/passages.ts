/**
 * Plain text out of a page's markdown for the deterministic answers of the model formats (summary,
 * question, highlights; issue 18 scope 3): passages (one per markdown block: paragraph, list item,
 * table row, heading) with the markdown syntax taken out, and sentences (Intl.Segmenter, the ICU
 * sentence rules built into the runtime). Pure functions, no DOM: PDFs and spreadsheets have markdown
 * only, so every document type is read the same way.
 */

/** One block of the page as plain text, in page order. */
export interface Passage {
  /** Position in page order, from 0. */
  index: number;
  text: string;
  /** The block was a heading (`#` line). */
  heading: boolean;
}

/** Markdown inline syntax -> plain text: images dropped, links to their text, emphasis and code marks removed. */
export function stripInline(md: string): string {
  return md
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*|_|`|~~)(?=\S)([^*_`~]*?\S)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The page's passages: blank-line separated blocks, each list item and table row on its own, code
 * fences kept as one passage, table separator rows and bare link lists dropped.
 */
export function passagesOf(markdown: string): Passage[] {
  const out: Passage[] = [];
  const push = (raw: string, heading = false) => {
    const text = stripInline(raw);
    if (text && /[\p{L}\p{N}]/u.test(text)) out.push({ index: out.length, text, heading });
  };
  let buf: string[] = [];
  const flush = () => {
    if (buf.length) push(buf.join(' '));
    buf = [];
  };
  let fence = false;
  for (const line of markdown.split('\n')) {
    const t = line.trim();
    if (t.startsWith('```')) {
      flush();
      fence = !fence;
      continue;
    }
    if (fence) {
      buf.push(t);
      continue;
    }
    if (!t) { flush(); continue; }
    const h = /^#{1,6}\s+(.*)$/.exec(t);
    if (h) { flush(); push(h[1], true); continue; }
    if (/^\|?\s*:?-{2,}/.test(t)) continue; // table separator row
    if (t.startsWith('|')) { flush(); push(t.replace(/\|/g, ' ')); continue; }
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(t);
    if (item) { flush(); push(item[1]); continue; }
    buf.push(t.replace(/^>\s?/, ''));
  }
  flush();
  return out;
}

let segmenter: Intl.Segmenter | undefined;

/** The sentences of a text (Intl.Segmenter, granularity `sentence`), trimmed, empty ones dropped. */
export function sentencesOf(text: string): string[] {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  const out: string[] = [];
  for (const s of segmenter.segment(text)) {
    const t = s.segment.trim();
    if (t) out.push(t);
  }
  return out;
}
