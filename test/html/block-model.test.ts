/**
 * The learned block model (bench/main-content/block-model.ts, issue 23): a bench experiment reached
 * through the extractor's `regionTap`; with the model unset the extractor's output is the rules' alone; switched on (as bench/main-content/wcxb.ts --model does), it scores text
 * blocks from structure and statistics. Synthetic pages only.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { pageToMarkdown } from './helpers.ts';
import { addable, FEATURES, predict, regionFeatures, SHIPPED_MODEL, training } from '../../bench/main-content/block-model.ts';

const prose = (n: number) =>
  `<p>Paragraph ${n} of the story explains, in plain words and with some detail, what happened at the harbour and why the town cares about it.</p>`;
const page = `<body><main><h1>Harbour news</h1>${Array.from({ length: 6 }, (_, i) => prose(i)).join('')}<ul class="tags"><li><a href="/t/a">Harbour</a></li><li><a href="/t/b">Boats</a></li></ul><div class="share">Share: <a href="/s1">Facebook</a> <a href="/s2">Twitter</a></div></main><div class="sidebar"><p>Subscribe to our newsletter for more local stories, every week, free of charge, delivered to you.</p></div><footer><a href="/">Home</a></footer></body>`;

/** Probability per block text of `html`, as the hook sees the page (the model in observe mode). */
function probabilities(html: string): Map<string, { p: number; inRegion: number; canAdd: number }> {
  const out = new Map<string, { p: number; inRegion: number; canAdd: number }>();
  const ir = FEATURES.indexOf('inRegion');
  training.observe = (blocks, region) => {
    const xs = regionFeatures(blocks, region, SHIPPED_MODEL.near.length, SHIPPED_MODEL.far.length);
    const add = addable(blocks, region, xs.map((x) => x[ir]));
    blocks.blocks.forEach((b, i) => out.set(b.text.replace(/\s+/g, ' ').trim(), { p: predict(xs[i]), inRegion: xs[i][ir], canAdd: add[i] }));
  };
  try {
    pageToMarkdown(html);
  } finally {
    training.observe = undefined;
  }
  return out;
}

afterEach(() => {
  training.model = undefined;
  training.observe = undefined;
});

describe('learned block model', () => {
  test('unset or without trees, the tap passes the rules’ region through', () => {
    const rules = pageToMarkdown(page);
    training.model = { ...SHIPPED_MODEL, trees: [] };
    expect(pageToMarkdown(page)).toBe(rules);
  });

  test('scores prose in the region high and link lists, share bars and a newsletter box low', () => {
    const ps = probabilities(page);
    const p = (start: string) => [...ps].find(([t]) => t.startsWith(start))![1];
    expect(p('Paragraph 0 of the story').p).toBeGreaterThan(0.9);
    expect(p('Paragraph 0 of the story').inRegion).toBe(1);
    expect(ps.get('Harbour')!.p).toBeLessThan(0.35);
    expect(p('Share:').p).toBeLessThan(0.35);
    const box = p('Subscribe to our newsletter');
    expect(box.inRegion).toBe(0);
    expect(box.p).toBeLessThan(SHIPPED_MODEL.add);
  });

  test('switched on, it keeps an article whole and adds no chrome', () => {
    training.model = SHIPPED_MODEL;
    const out = pageToMarkdown(page);
    expect(out).toContain('Paragraph 5 of the story');
    expect(out).not.toContain('Subscribe to our newsletter');
    expect(out).not.toContain('Facebook');
  });
});
