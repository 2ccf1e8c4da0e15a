/**
 * The official SDK (`firecrawl@4.42.0`) against Trawl, unchanged: search (groups not requested are
 * absent), search with scrapeOptions (items recognized as Documents), server-side 400s surfacing as
 * SDK errors, the research client and search feedback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { SCRAPED, SITE } from './fixtures.ts';

let site: FixtureSite;
let trawl: TestTrawl;
let fc: Firecrawl;

beforeAll(async () => {
  site = serveFixtures(SITE);
  trawl = await startTrawl({});
  fc = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
  for (const path of SCRAPED) await fc.scrape(site.url(path), { formats: ['markdown'] });
}, 120_000);

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

async function sdkError(p: Promise<unknown>): Promise<Error & { status?: number; statusCode?: number }> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the SDK to throw');
}

describe('firecrawl SDK search', () => {
  test('web results; news and images absent when not requested', async () => {
    const res = await fc.search('tide tables', { limit: 3 });
    expect(res.web?.[0]).toMatchObject({ url: site.url('/tides'), title: 'Tide tables of the North Sea', position: 1 });
    expect('news' in res).toBe(false);
    expect('images' in res).toBe(false);
  });

  test('news only', async () => {
    const res = await fc.search('tide', { sources: ['news'], limit: 2 });
    expect(res.news?.[0]).toMatchObject({ url: site.url('/tides'), date: '1 day ago' });
    expect('web' in res).toBe(false);
  });

  test('scrapeOptions: results come back as Documents with markdown', async () => {
    const res = await fc.search('harbour', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
    expect(res.web!.length).toBeGreaterThan(0);
    for (const doc of res.web as any[]) {
      expect(doc.markdown).toContain('#');
      expect(doc.metadata.statusCode).toBe(200);
    }
  });

  test('a bad query is an SDK error carrying the server message', async () => {
    const err = await sdkError(fc.search('site:site.example'));
    expect(err.message).toContain('only operators');
  });

  test('research client: search, get, similar, and problem-details errors', async () => {
    const found = await fc.research.searchPapers('tidal energy', { k: 5, authors: ['Roe'] });
    expect(found.results[0]).toMatchObject({ primaryId: 'arxiv:2401.01234', title: 'Tidal energy extraction in shallow seas' });
    const paper = await fc.research.getPaper('arxiv:2401.01234');
    expect(paper.paper.ids).toEqual({ arxiv: ['2401.01234'], doi: ['10.1000/tide.2024.1'] });
    const similar = await fc.research.similarPapers(found.results[0].paperId, { intent: 'tidal turbines', k: 3 });
    expect(similar.success).toBe(true);
    expect(similar.poolSize).toBe(similar.results.length);
    const err = await sdkError(fc.research.searchPapers('tidal', { from: 'last week' }));
    expect(err.message).toContain('from must be a date as YYYY-MM-DD');
  });

  test('search feedback refunds once', async () => {
    const raw = await trawl.post('/v2/search', { query: 'moon', limit: 1 }, { authorization: `Bearer ${trawl.adminKey}` });
    const first = await fc.searchFeedback(raw.body.id, { rating: 'good', querySuggestions: 'more harbours' });
    expect(first.creditsRefunded).toBe(1);
    const second = await fc.searchFeedback(raw.body.id, { rating: 'good' });
    expect(second.alreadySubmitted).toBe(true);
    const generic = await fc.feedback({ endpoint: 'search', jobId: raw.body.id, rating: 'bad' });
    expect(generic.alreadySubmitted).toBe(true);
  });
});
