/**
 * Text measures per element, computed bottom-up in one pass: how much text an element holds, how much
 * of it sits inside links, its own inline text (text not inside nested blocks, i.e. what a reader sees
 * as one paragraph) and counts of paragraphs, images, list items, form controls and commas. Lengths
 * count non-whitespace characters so indentation and markup layout do not matter.
 */
import { INLINE_TAGS, isTag, isText, postOrder, type Element, type ParentNode } from './dom.ts';

export interface Stats {
  /** Non-whitespace characters of all text inside. */
  len: number;
  /** Non-whitespace characters inside `<a>` elements. */
  link: number;
  /** Own inline text (not inside nested block elements), characters. */
  own: number;
  /** Own inline text inside links, characters. */
  ownLink: number;
  /** Commas (Latin and CJK) in all text inside. */
  commas: number;
  p: number;
  img: number;
  li: number;
  input: number;
  headings: number;
  pre: number;
  table: number;
}

export type StatsMap = Map<Element, Stats>;

const COMMAS = /[,\u060C\uFE50\uFE10\uFE11\u2E41\u2E34\u2E32\uFF0C\u3001]/g;
const WS = /\s+/g;

function textLen(s: string): number {
  return s.length - (s.match(WS)?.reduce((n, m) => n + m.length, 0) ?? 0);
}

function countCommas(s: string): number {
  return s.match(COMMAS)?.length ?? 0;
}

/** Computes Stats for every element under `root` (iterative post-order). */
export function computeStats(root: ParentNode): StatsMap {
  const map: StatsMap = new Map();
  for (const el of postOrder(root)) {
    const s: Stats = { len: 0, link: 0, own: 0, ownLink: 0, commas: 0, p: 0, img: 0, li: 0, input: 0, headings: 0, pre: 0, table: 0 };
    for (const c of el.children) {
      if (isText(c)) {
        const n = textLen(c.data);
        s.len += n;
        s.own += n;
        s.commas += countCommas(c.data);
      } else if (isTag(c)) {
        const cs = map.get(c);
        if (!cs) continue;
        s.len += cs.len;
        s.link += cs.link;
        s.commas += cs.commas;
        s.p += cs.p;
        s.img += cs.img;
        s.li += cs.li;
        s.input += cs.input;
        s.headings += cs.headings;
        s.pre += cs.pre;
        s.table += cs.table;
        if (INLINE_TAGS.has(c.name)) {
          s.own += cs.len;
          s.ownLink += cs.link;
        }
      }
    }
    switch (el.name) {
      case 'a':
        // An anchor without href (`<a id=x>`, often wrapping content after an XHTML `<a/>`) is no link.
        if (el.attribs.href !== undefined) {
          s.link = s.len;
          s.ownLink = s.own;
        }
        break;
      case 'p':
        s.p++;
        break;
      case 'img':
        s.img++;
        break;
      case 'li':
        s.li++;
        break;
      case 'input':
      case 'button':
      case 'select':
      case 'textarea':
        s.input++;
        break;
      case 'pre':
        s.pre++;
        break;
      case 'table':
        s.table++;
        break;
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
        s.headings++;
        break;
    }
    map.set(el, s);
  }
  return map;
}

/** Share of an element's text inside links (0..1). */
export function linkDensity(s: Stats | undefined): number {
  if (!s || s.len === 0) return 0;
  return Math.min(1, s.link / s.len);
}
