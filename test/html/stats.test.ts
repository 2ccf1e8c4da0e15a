/**
 * Text statistics (parsers/html/stats.ts): after pruning, `updateAfterRemoval` recomputes only the
 * removed elements' former ancestors, and must give what a full `computeStats` of the pruned tree
 * gives, element for element and in the same order, including text the prune adds (icon images
 * replaced by their emoji alt text).
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyOf, parseHtml, type ParentNode } from '../../parsers/html/dom.ts';
import { basicClean } from '../../parsers/html/basic-clean.ts';
import { computeStats, updateAfterRemoval, type Stats } from '../../parsers/html/stats.ts';
import { pruneBoilerplate } from '../../parsers/html/prune.ts';
import { PAGES } from './helpers.ts';

/** Prunes `html`'s body; returns the updated stats and a fresh computation, as plain entries. */
function pruneBothWays(html: string): { updated: [string, Stats][]; fresh: [string, Stats][]; removed: string[] } {
  const root: ParentNode = bodyOf(parseHtml(html));
  basicClean(root);
  const stats = computeStats(root);
  const removed = pruneBoilerplate(root, stats, false);
  updateAfterRemoval(stats, root, removed);
  const plain = (entries: Iterable<[{ name: string }, Stats]>) =>
    [...entries].map(([el, s]): [string, Stats] => {
      const { owner: _, ...rest } = s as Stats & { owner?: unknown };
      return [el.name, rest];
    });
  const updated = plain(stats);
  return { updated, fresh: plain(computeStats(root)), removed: removed.map((r) => r.el.name) };
}

describe('stats after pruning', () => {
  test('equal a full computation on every fixture page', () => {
    let removed = 0;
    for (const file of readdirSync(PAGES).filter((f) => f.endsWith('.html'))) {
      const r = pruneBothWays(readFileSync(join(PAGES, file), 'utf8'));
      expect(r.updated).toEqual(r.fresh);
      removed += r.removed.length;
    }
    expect(removed).toBeGreaterThan(20); // the pages do have boilerplate to prune
  });

  test('count text the prune adds, and forget what it removes from inline ancestors', () => {
    const html = `<body><div><div class="lead">Start <span>with <a href="/x">the notes</a> <button>Share</button></span>, then
      <img src="/s.png" width="16" height="16" alt="🙂"> <a href="/y">smile</a>. ${'More lead text here. '.repeat(25)}</div>
      <nav><a href="/a">Home</a> <a href="/b">About</a></nav><p>${'Body text, with commas. '.repeat(20)}</p></div></body>`;
    const r = pruneBothWays(html);
    expect(r.removed).toEqual(['span', 'img', 'nav']); // a control bar, an icon, the navigation
    expect(r.updated).toEqual(r.fresh);
    const lead = r.updated.filter(([name]) => name === 'div')[0][1];
    expect(lead.len).toBe('Start,then🙂smile.'.length + 'Moreleadtexthere.'.length * 25);
    expect(lead.own).toBe(lead.len);
    expect(lead.ownLink).toBe('smile'.length);
    expect(lead.input).toBe(0);
    expect(lead.img).toBe(0);
  });
});

describe('ownCommas', () => {
  test('counts the commas paragraph scoring reads: own text and a/span/em/strong/b/i inside, not nested blocks', () => {
    const root = bodyOf(parseHtml('<div id="d">a, b、c،d，<a href="/x">e, f</a><span><em>g,</em><code>h,</code></span><p>i, j</p>k﹐l</div>'));
    const stats = computeStats(root);
    const div = [...stats.keys()].find((el) => el.attribs.id === 'd')!;
    // 4 in the text, 1 in the link, 1 in the em; not the code's, not the paragraph's; U+FE50 is no scoring comma
    expect(stats.get(div)!.ownCommas).toBe(6);
    expect(stats.get(div)!.commas).toBe(9);
  });
});
