/**
 * `classify` remembers what each link spelling gives in a crawl (core/crawl/discovery.ts): a page
 * that repeats links seen on earlier pages must get exactly what a first sight gives (accepted,
 * robots-blocked, skipped, out of scope), each crawl under its own options, and robots.txt is read
 * once per crawl and origin.
 */
import { describe, expect, test } from 'bun:test';
import { classify, crawlContext, type DiscoveryDeps } from '../../core/crawl/discovery.ts';
import { resolveCrawlerOptions } from '../../core/crawl/options.ts';

const ORIGIN = 'http://memo.example';
const LINKS = [
  `${ORIGIN}/docs/a.html#top`,
  `${ORIGIN}/docs/a.html`,
  `${ORIGIN}/docs/b.html?x=1`,
  `${ORIGIN}/docs/private/c.html`,
  `${ORIGIN}/docs/image.png`,
  `${ORIGIN}/elsewhere/d.html`,
  'https://other.example/',
  'mailto:someone@memo.example',
  'not a url',
];

/** A database stand-in holding the crawl's robots.txt, counting the reads. */
function deps(): DiscoveryDeps & { reads: number } {
  const d = {
    reads: 0,
    db: {
      query: async () => {
        d.reads++;
        return [{ body: 'User-agent: *\nDisallow: /docs/private/\n' }];
      },
    },
    log: { debug() {} },
  };
  return d as unknown as DiscoveryDeps & { reads: number };
}

describe('classify with remembered links', () => {
  test('a repeated page gives what the first sight gave, robots.txt read once', async () => {
    const d = deps();
    const ctx = crawlContext(`memo-${crypto.randomUUID()}`, resolveCrawlerOptions({ url: `${ORIGIN}/docs/`, allowExternalLinks: true }));
    const first = await classify(d, ctx, LINKS, 1);
    const again = await classify(d, ctx, LINKS, 2);
    expect(first.accept.map((c) => c.url)).toEqual([`${ORIGIN}/docs/a.html`, `${ORIGIN}/docs/b.html?x=1`]);
    expect(first.robots.map((c) => c.url)).toEqual([`${ORIGIN}/docs/private/c.html`]);
    expect(first.skipped.map((c) => c.code)).toEqual(['EXTERNAL_LINK']);
    expect(again.accept).toEqual(first.accept.map((c) => ({ ...c, depth: 2 })));
    expect(again.robots).toEqual(first.robots);
    expect(again.skipped).toEqual(first.skipped);
    expect(d.reads).toBe(1);
  });

  test('each crawl keys and judges the same spellings under its own options', async () => {
    const plain = crawlContext(`memo-${crypto.randomUUID()}`, resolveCrawlerOptions({ url: `${ORIGIN}/docs/` }));
    const noQuery = crawlContext(`memo-${crypto.randomUUID()}`, resolveCrawlerOptions({ url: `${ORIGIN}/`, ignoreQueryParameters: true, ignoreRobotsTxt: true }));
    const a = await classify(deps(), plain, LINKS, 1);
    const b = await classify(deps(), noQuery, LINKS, 1);
    expect(a.accept.map((c) => c.url)).toEqual([`${ORIGIN}/docs/a.html`, `${ORIGIN}/docs/b.html?x=1`]);
    expect(b.accept.map((c) => c.url)).toEqual([`${ORIGIN}/docs/a.html`, `${ORIGIN}/docs/b.html`, `${ORIGIN}/docs/private/c.html`, `${ORIGIN}/elsewhere/d.html`]);
    expect(b.robots).toEqual([]);
  });
});
