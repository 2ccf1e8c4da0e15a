/**
 * The page-version store (core/page-versions, table `page_versions` of migration 0020) on both
 * database drivers: versions round-trip (markdown, json of any shape, tombstones), teams and tags are
 * separate histories, URLs are keyed normalized (scheme added, fragment dropped, query sorted; long
 * URLs fit), and `recordPageGone` / `knownPages`, the entry points monitors use.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { forEachDatabase, openTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { knownPages, pageVersionStore, recordPageGone } from '../../core/page-versions/index.ts';

forEachDatabase((kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('versions round-trip per team and tag; the latest replaces the one before', async () => {
    const a = pageVersionStore(t.db, 'team-a');
    const b = pageVersionStore(t.db, 'team-b');
    const at = new Date('2026-01-02T03:04:05.678Z');
    await a.keep('http://example.test/p', null, { scrapedAt: at, gone: false, markdown: '# P\n\nOne', json: { price: 1, tags: ['x'] } });
    await a.keep('http://example.test/p', 'daily', { scrapedAt: at, gone: false, markdown: '# P daily', json: [1, 2] });
    expect(await a.latest('http://example.test/p', null)).toEqual({ scrapedAt: at, gone: false, markdown: '# P\n\nOne', json: { price: 1, tags: ['x'] } });
    expect((await a.latest('http://example.test/p', 'daily'))!.json).toEqual([1, 2]);
    expect(await a.latest('http://example.test/p', 'weekly')).toBeUndefined();
    expect(await b.latest('http://example.test/p', null)).toBeUndefined();
    const later = new Date(at.getTime() + 60_000);
    await a.keep('http://example.test/p', null, { scrapedAt: later, gone: false, markdown: '# P\n\nTwo', json: null });
    expect(await a.latest('http://example.test/p', null)).toEqual({ scrapedAt: later, gone: false, markdown: '# P\n\nTwo', json: null });
    const rows = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM page_versions WHERE team_id = 'team-a'");
    expect(rows[0]!.n).toBe(2);
  });

  test('URLs are keyed normalized; a long URL fits', async () => {
    const s = pageVersionStore(t.db, 'team-url');
    await s.keep('example.test/q?b=2&a=1#top', null, { scrapedAt: new Date(), gone: false, markdown: 'q', json: null });
    expect((await s.latest('http://example.test/q?a=1&b=2', null))!.markdown).toBe('q');
    expect(await s.latest('http://example.test/q?a=1', null)).toBeUndefined();
    const long = `http://example.test/${'x'.repeat(20_000)}`;
    await s.keep(long, null, { scrapedAt: new Date(), gone: false, markdown: 'long', json: null });
    expect((await s.latest(long, null))!.markdown).toBe('long');
  });

  test('recordPageGone: removed after a live version, then same; new when unknown; ZDR keeps nothing', async () => {
    const team = 'team-gone';
    const url = 'http://example.test/gone';
    const live = new Date('2026-03-01T00:00:00.000Z');
    await pageVersionStore(t.db, team).keep(url, 'monitor:1', { scrapedAt: live, gone: false, markdown: 'here', json: null });
    const first = await recordPageGone(t.db, { teamId: team, url, tag: 'monitor:1', at: new Date('2026-03-02T00:00:00.000Z') });
    expect(first).toEqual({ previousScrapeAt: live.toISOString(), changeStatus: 'removed', visibility: 'visible' });
    const second = await recordPageGone(t.db, { teamId: team, url, tag: 'monitor:1', visibility: 'hidden' });
    expect(second).toEqual({ previousScrapeAt: '2026-03-02T00:00:00.000Z', changeStatus: 'same', visibility: 'hidden' });
    expect((await recordPageGone(t.db, { teamId: team, url: 'http://example.test/never', zeroDataRetention: true })).changeStatus).toBe('new');
    expect(await pageVersionStore(t.db, team).latest('http://example.test/never', null)).toBeUndefined();
    const known = await knownPages(t.db, team, 'monitor:1');
    expect(known).toHaveLength(1);
    expect(known[0]).toMatchObject({ url, gone: true });
    expect(await knownPages(t.db, team, null)).toEqual([]);
  });
});
