/**
 * The page's title heading: the h1-h3 that best covers the page title (`<title>`, `og:title`), with
 * headings in page chrome counting less (a site-name heading in the header matches "Post | Site" too).
 * The main-content extractor puts it in front of the region when it lies outside.
 */
import { elements, isTag, normalizeSpace, sharedWordCount, textOf, type Element, type ParentNode } from './dom.ts';
import { hintsOf, landmarkOf } from './hints.ts';

function normTitle(s: string): string {
  return normalizeSpace(s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' '));
}

function titleTokens(s: string): string[] {
  return normTitle(s).split(' ').filter(Boolean);
}

/**
 * How well a heading matches a page title: the share of the title's words the heading covers, when
 * nearly all of the heading's words are in the title (0 otherwise). "Post title | Site" favours the
 * heading holding the post title over the one holding the site name.
 */
function titleCoverage(heading: string, titles: string[][]): number {
  const h = titleTokens(heading);
  if (!h.length || h.length > 60) return 0;
  let best = 0;
  for (const t of titles) {
    const hit = sharedWordCount(h, t);
    if (hit / h.length >= 0.8) best = Math.max(best, hit / t.length);
  }
  return best;
}

const HEADING_PENALTY: Record<string, number> = { h1: 0, h2: 0.05, h3: 0.1 };

/**
 * The heading that titles the page: among h1-h3, the one covering most of a page title (`<title>`,
 * `og:title`), headings in page chrome (header, nav, footer) counting less; without a match, the first
 * h1 outside the chrome.
 */
export function findTitleHeading(root: ParentNode, titles: string[]): Element | undefined {
  const wanted = titles.map(titleTokens).filter((t) => t.length > 0);
  let best: Element | undefined;
  let bestScore = 0.2;
  let firstH1: Element | undefined;
  for (const el of elements(root)) {
    const penalty = HEADING_PENALTY[el.name];
    if (penalty === undefined) continue;
    const text = textOf(el);
    // The chrome level (a walk over the ancestors) only where it can matter: it is never negative, so
    // a heading whose coverage cannot beat the best score without it cannot beat it with it.
    let chrome: number | undefined;
    if (el.name === 'h1' && !firstH1 && normalizeSpace(text) && !(chrome = chromeLevel(el))) firstH1 = el;
    const coverage = titleCoverage(text, wanted) - penalty;
    if (coverage <= bestScore) continue;
    const score = coverage - (chrome ?? chromeLevel(el));
    if (score > bestScore) {
      best = el;
      bestScore = score;
    }
  }
  return best ?? firstH1;
}

/** 0.5 inside landmark chrome (nav, aside, page header/footer), 0.3 inside chrome-named blocks, else 0. */
function chromeLevel(el: Element): number {
  let level = 0;
  for (let p = el.parent; p; p = p.parent) {
    if (!isTag(p)) continue;
    const m = landmarkOf(p);
    if (m === 'chrome' || m === 'junk') return 0.5;
    if ((p.name === 'header' || p.name === 'footer') && !insideContent(p)) return 0.5;
    const h = hintsOf(p);
    if ((h.chrome || h.junk) && !h.positive) level = 0.3;
  }
  return level;
}

function insideContent(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) {
    if (!isTag(p)) continue;
    const m = landmarkOf(p);
    if (m === 'main' || m === 'article') return true;
  }
  return false;
}

