/**
 * Repeated boilerplate across a site. A block's fingerprint is a hash of its tag and its normalized
 * text; a crawl collects the fingerprints of every page it scrapes (`blockFingerprints`), counts them
 * in a `BoilerplateTracker`, and passes `tracker.known()` to `cleanHtml({ boilerplate })` so blocks seen
 * on many pages of the site (footers, newsletter boxes, "about the author" boxes, legal notes) are
 * removed even when nothing in their markup says they are boilerplate.
 */
import { elements, INLINE_TAGS, normalizeSpace, textOf, detach, type Element, type ParentNode } from './dom.ts';
import { computeStats, type StatsMap } from './stats.ts';

/** Blocks shorter or longer than this (characters of normalized text) are not fingerprinted. */
const MIN_TEXT = 20;
const MAX_TEXT = 4000;

function fingerprintOf(el: Element, stats: StatsMap): string | undefined {
  if (INLINE_TAGS.has(el.name)) return undefined;
  const len = stats.get(el)?.len ?? 0;
  if (len < MIN_TEXT / 2 || len > MAX_TEXT) return undefined;
  const text = normalizeSpace(textOf(el)).toLowerCase();
  if (text.length < MIN_TEXT || text.length > MAX_TEXT) return undefined;
  return Bun.hash(el.name + '\u0000' + text).toString(36);
}

/** Fingerprints of the block elements under `root` (unique, document order). */
export function blockFingerprints(root: ParentNode): string[] {
  const out = new Set<string>();
  const stats = computeStats(root);
  for (const el of elements(root)) {
    const fp = fingerprintOf(el, stats);
    if (fp) out.add(fp);
  }
  return [...out];
}

/** Removes blocks whose fingerprint is in `known` (outermost first). Returns how many were removed. */
export function removeFingerprinted(root: ParentNode, known: ReadonlySet<string>): number {
  const remove: Element[] = [];
  const stats = computeStats(root);
  const stack = [...root.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type !== 'tag') continue;
    const el = n as Element;
    const fp = fingerprintOf(el, stats);
    if (fp && known.has(fp)) {
      remove.push(el);
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
  }
  for (const el of remove) detach(el);
  return remove.length;
}

/**
 * Counts block fingerprints over the pages of one site (one tracker per crawl and host).
 * Memory: one map entry per distinct fingerprint; `maxEntries` caps it (oldest entries are dropped).
 */
export class BoilerplateTracker {
  private readonly counts = new Map<string, number>();
  private pageCount = 0;

  constructor(private readonly maxEntries = 200_000) {}

  /** Records one page's fingerprints (as returned by `blockFingerprints`). */
  addPage(fingerprints: readonly string[]): void {
    this.pageCount++;
    for (const fp of new Set(fingerprints)) {
      this.counts.set(fp, (this.counts.get(fp) ?? 0) + 1);
      if (this.counts.size > this.maxEntries) {
        const oldest = this.counts.keys().next().value;
        if (oldest !== undefined) this.counts.delete(oldest);
      }
    }
  }

  get pages(): number {
    return this.pageCount;
  }

  /**
   * Fingerprints seen on at least `minPages` pages and at least `minShare` (0..1) of the pages.
   * Empty until `minPages` pages were recorded.
   */
  known(minPages = 3, minShare = 0.3): Set<string> {
    const out = new Set<string>();
    if (this.pageCount < minPages) return out;
    const need = Math.max(minPages, Math.ceil(this.pageCount * minShare));
    for (const [fp, n] of this.counts) if (n >= need) out.add(fp);
    return out;
  }
}
