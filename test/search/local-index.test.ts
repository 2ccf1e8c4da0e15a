/**
 * The local search index and the paper index on both database drivers (PGlite and PostgreSQL):
 * documents as the scrape pipeline produces them are indexed through the worker hook, then searched
 * through the `local` provider plugin and the paper store.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { forEachDatabase, openTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { silentLogger } from '../../core/log.ts';
import { loadConfig } from '../../core/config.ts';
import type { Document } from '../../core/pipeline/scrape.ts';
import type { SearchContext, SearchQuery } from '../../core/plugin.ts';
import { indexScrapedDocument } from '../../core/search/index-document.ts';
import local from '../../plugins/search/local.ts';
import { findPaper, paperPassages, searchPaperIndex } from '../../core/search/papers/store.ts';
import { relatedPapers } from '../../core/search/papers/related.ts';
import { searchAllPapers } from '../../core/search/papers/search.ts';

const DAY = 86_400_000;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

function doc(url: string, markdown: string, meta: Record<string, unknown> = {}): Document {
  return { markdown, metadata: { sourceURL: url, url, statusCode: 200, contentType: 'text/html; charset=utf-8', ...meta } };
}

const DOCS: Document[] = [
  doc('https://coast.example/tides', '# Tide tables of the North Sea\n\nThe tide rises twice a day along the coast of the North Sea, driven by the moon and the sun. Fishermen read tide tables before they leave the harbour.\n\n| Port | High water |\n|---|---|\n| Den Helder | 06:12 |', {
    title: 'Tide tables of the North Sea', description: 'How tides work along the coast.', language: 'en', publishedTime: iso(2 * DAY), 'og:type': 'article',
    ogImage: 'https://coast.example/img/tide.jpg', 'og:image:width': '1200', 'og:image:height': '800',
  }),
  doc('https://moon.example/phases', '# Moon phases\n\nNew moon and full moon bring spring tides. The moon pulls the water of the oceans.', { title: 'Moon phases', language: 'en', publishedTime: iso(400 * DAY), 'og:type': 'article' }),
  doc('https://harbour.example/hours', '# Harbour opening hours\n\nThe harbour of Den Helder opens at six in the morning. Boats wait for high water.', { title: 'Harbour opening hours', language: 'en' }),
  doc('https://watt.example/gezeiten', '# Gezeiten an der Nordsee\n\nDie Flut kommt zweimal am Tag. Tide und Gezeiten im Wattenmeer.', { title: 'Gezeiten an der Nordsee', language: 'de' }),
  doc('https://adult.example/tides', '# Tide party\n\nAn adult page about the tide.', { title: 'Tide party', rating: 'adult' }),
  doc('https://missing.example/tides', '# Not found\n\nTide page that is gone.', { title: 'Gone', statusCode: 404 }),
  // an arXiv abstract page with Highwire citation tags
  doc('https://arxiv.org/abs/2401.01234v2', '# Tidal energy extraction in shallow seas\n\nAbstract: We study tidal energy extraction in shallow seas using turbine arrays.', {
    title: 'Tidal energy extraction in shallow seas', citation_title: 'Tidal energy extraction in shallow seas',
    citation_author: ['Doe, Jane', 'Roe, Richard'], citation_date: '2024/01/03', citation_online_date: '2024/02/10',
    citation_arxiv_id: '2401.01234', citation_doi: '10.1000/tide.2024.1', citation_pdf_url: 'https://arxiv.org/pdf/2401.01234',
    citation_abstract: 'We study tidal energy extraction in shallow seas using arrays of turbines and measure the resonance of the basin.',
    citation_keywords: 'physics.ao-ph; renewable energy',
  }),
  // a paper citing the first one, and one cited by it
  doc('https://journal.example/article/77', '# Turbines and tides\n\nA study of turbine wakes.', {
    citation_title: 'Turbine wakes in tidal channels', citation_author: 'Poe, Edgar', citation_publication_date: '2025-05-01',
    citation_doi: '10.1000/wake.77', citation_abstract: 'Turbine wakes in tidal channels reduce the energy yield of arrays.',
    citation_reference: ['citation_title=Tidal energy extraction; citation_doi=10.1000/tide.2024.1'],
  }),
];

const PDF_TEXT = `Tidal energy extraction in shallow seas\n\narXiv:2401.01234v2 [physics.ao-ph] 10 Feb 2024\n\nAbstract\n\nWe study tidal energy extraction in shallow seas using arrays of turbines. The basin resonance changes the yield.\n\n1 Introduction\n\nTidal streams are predictable. Resonance of the basin amplifies the tide near the coast.\n\nTurbine arrays slow the flow in the channel; the wake recovers after ten rotor diameters.\n\nReferences\n\n[1] Old work on basins, doi:10.1000/basin.1`;

forEachDatabase((kind) => {
  let t: TestDatabase;
  const config = loadConfig({ TRAWL_LOG_LEVEL: 'silent' });
  const ctx = (): SearchContext => ({ config, log: silentLogger, signal: new AbortController().signal, deadline: Date.now() + 10_000, blobs: {} as never, db: t.db, indexTeams: ['team-a'] });
  const search = (over: Partial<SearchQuery>) => local.search({ query: 'tide', source: 'web', limit: 10, timeoutMs: 10_000, ...over }, ctx());

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    for (const d of DOCS) await indexScrapedDocument(t.db, d, 'team-a', silentLogger);
    await indexScrapedDocument(t.db, { markdown: PDF_TEXT, metadata: { sourceURL: 'https://arxiv.org/pdf/2401.01234', url: 'https://arxiv.org/pdf/2401.01234', statusCode: 200, contentType: 'application/pdf', title: 'tidal.pdf', numPages: 9 } }, 'team-a', silentLogger);
    await indexScrapedDocument(t.db, { markdown: '# Basins\n\nAbstract\n\nBasins of the sea resonate with the tide at their natural period.', metadata: { url: 'https://papers.example/basin.pdf', statusCode: 200, contentType: 'application/pdf', title: 'Basin resonance', citation_doi: undefined } }, 'team-a', silentLogger);
    await indexScrapedDocument(t.db, doc('https://basin.example/paper', 'Basin paper', { citation_title: 'Resonance of sea basins', citation_doi: '10.1000/basin.1', citation_abstract: 'Basins of the sea resonate with the tide.' }), 'team-a', silentLogger);
  }, 60_000);
  afterAll(async () => t?.close());

  describe('local provider', () => {
    test('finds pages by stemmed words, best first, with query-relevant snippets', async () => {
      const hits = await search({ query: 'tides table' });
      expect(hits[0].url).toBe('https://coast.example/tides');
      expect(hits[0].title).toBe('Tide tables of the North Sea');
      expect(hits[0].description.toLowerCase()).toContain('tide');
      expect(hits[0].description).not.toBe('How tides work along the coast.');
      expect(hits.map((h) => h.url)).not.toContain('https://missing.example/tides'); // 404 pages are not indexed
    });

    test('highlights false returns the page description', async () => {
      const hits = await search({ query: 'tide tables', highlights: false });
      expect(hits[0].description).toBe('How tides work along the coast.');
    });

    test('when not every word matches, pages matching some words fill the list', async () => {
      const hits = await search({ query: 'harbour volcano' });
      expect(hits.map((h) => h.url)).toContain('https://harbour.example/hours');
      const strict = await search({ query: '"opening hours" harbour' });
      expect(strict[0].url).toBe('https://harbour.example/hours');
    });

    test('site:, -site: and filetype: operators', async () => {
      expect((await search({ query: 'tide site:coast.example' })).map((h) => h.url)).toEqual(['https://coast.example/tides']);
      const notCoast = await search({ query: 'tide -site:coast.example' });
      expect(notCoast.length).toBeGreaterThan(0);
      expect(notCoast.some((h) => h.url.includes('coast.example'))).toBe(false);
      const pdfs = await search({ query: 'tidal filetype:pdf' });
      expect(pdfs.map((h) => h.url)).toEqual(['https://arxiv.org/pdf/2401.01234']);
      expect((await search({ query: 'tide (site:moon.example OR site:harbour.example)' })).every((h) => /moon|harbour/.test(h.url))).toBe(true);
    });

    test('news: pages with a publication date, with relative date text', async () => {
      const news = await search({ query: 'tide', source: 'news' });
      expect(news.map((h) => h.url).sort()).toEqual(['https://coast.example/tides', 'https://moon.example/phases']);
      expect(news.find((h) => h.url === 'https://coast.example/tides')!.date).toBe('2 days ago');
      expect(news.find((h) => h.url === 'https://moon.example/phases')!.date).toBe('1 year ago');
    });

    test('images: pages with an image, size operators', async () => {
      const images = await search({ query: 'tide', source: 'images' });
      expect(images).toEqual([expect.objectContaining({ url: 'https://coast.example/tides', imageUrl: 'https://coast.example/img/tide.jpg', imageWidth: 1200, imageHeight: 800 })]);
      expect(await search({ query: 'tide larger:2000x1000', source: 'images' })).toEqual([]);
      expect(await search({ query: 'tide larger:1000x600', source: 'images' })).toHaveLength(1);
    });

    test('tbs: past periods and custom ranges on publication dates', async () => {
      const moon = (hits: { url: string }[]) => hits.some((h) => h.url === 'https://moon.example/phases');
      expect(moon(await search({ query: 'moon' }))).toBe(true);
      expect(moon(await search({ query: 'moon', tbs: 'qdr:m' }))).toBe(false);
      expect(moon(await search({ query: 'moon', tbs: 'qdr:y2' }))).toBe(true);
      const d = new Date(Date.now() - 400 * DAY);
      const day = `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
      expect(moon(await search({ query: 'moon', tbs: `cdr:1,cd_min:${day},cd_max:${day}` }))).toBe(true);
    });

    test('lang and safe', async () => {
      const de = await search({ query: 'gezeiten', lang: 'de' });
      expect(de.map((h) => h.url)).toEqual(['https://watt.example/gezeiten']);
      expect(await search({ query: 'gezeiten', lang: 'en' })).toEqual([]);
      expect((await search({ query: 'tide party' })).map((h) => h.url)).toContain('https://adult.example/tides');
      expect((await search({ query: 'tide party', safe: true })).map((h) => h.url)).not.toContain('https://adult.example/tides');
    });

    test('re-scraping a URL refreshes its row', async () => {
      await indexScrapedDocument(t.db, doc('https://harbour.example/hours', '# Harbour hours\n\nNow open around the clock for kayaks.', { title: 'Harbour hours (new)' }), 'team-a', silentLogger);
      const rows = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM search_index WHERE url = 'https://harbour.example/hours'`);
      expect(rows[0].n).toBe(1);
      expect((await search({ query: 'kayaks' }))[0].title).toBe('Harbour hours (new)');
    });

    test('re-scraping an unchanged page leaves its row as it is', async () => {
      const read = () => t.db.query<{ xmin: string; updated_at: Date }>(`SELECT xmin::text, updated_at FROM search_index WHERE url = 'https://moon.example/phases'`);
      const [before] = await read();
      await indexScrapedDocument(t.db, DOCS[1], 'team-a', silentLogger);
      const [after] = await read();
      expect(after.xmin).toBe(before.xmin);
      expect(after.updated_at.getTime()).toBe(before.updated_at.getTime());
      await indexScrapedDocument(t.db, doc('https://moon.example/phases', '# Moon phases\n\nThe moon has four phases.', { title: 'Moon phases', language: 'en' }), 'team-a', silentLogger);
      expect((await read())[0].xmin).not.toBe(before.xmin);
      expect((await search({ query: 'four phases' }))[0].url).toBe('https://moon.example/phases');
    });
  });

  describe('paper index', () => {
    test('citation pages and identifying PDFs become one paper per id', async () => {
      const rows = await t.db.query<{ primary_id: string }>('SELECT primary_id FROM papers ORDER BY id');
      expect(rows.map((r) => r.primary_id).sort()).toEqual(['arxiv:2401.01234', 'doi:10.1000/basin.1', 'doi:10.1000/wake.77']);
      const p = (await findPaper(t.db, 'arxiv:2401.01234'))!;
      expect(p.title).toBe('Tidal energy extraction in shallow seas');
      expect(p.ids).toEqual({ arxiv: ['2401.01234'], doi: ['10.1000/tide.2024.1'] });
      expect(p.authors).toBe('Doe, Jane, Roe, Richard');
      expect(p.created_date).toBe('2024-01-03');
      expect(p.categories).toEqual(['physics.ao-ph', 'renewable energy']);
      expect(p.body).toContain('ten rotor diameters'); // the PDF's full text was merged in
      for (const ref of [String(p.id), '2401.01234', 'https://arxiv.org/abs/2401.01234v3', 'doi:10.1000/TIDE.2024.1', 'https://doi.org/10.1000/tide.2024.1']) {
        expect((await findPaper(t.db, ref))?.id).toBe(p.id);
      }
      expect(await findPaper(t.db, 'arxiv:9999.99999')).toBeUndefined();
    });

    test('search ranks by relevance and filters by authors, categories and dates', async () => {
      const all = await searchPaperIndex(t.db, 'tidal energy extraction', 10);
      expect(all[0].primaryId).toBe('arxiv:2401.01234');
      expect(all[0]).toMatchObject({ paperId: expect.stringMatching(/^\d+$/), ids: { arxiv: ['2401.01234'] } });
      expect(all[0].score).toBeGreaterThan(all.at(-1)!.score);
      expect((await searchPaperIndex(t.db, 'tidal', 10, { authors: ['poe'] })).map((r) => r.primaryId)).toEqual(['doi:10.1000/wake.77']);
      expect((await searchPaperIndex(t.db, 'tidal', 10, { categories: ['physics.ao-ph'] })).map((r) => r.primaryId)).toEqual(['arxiv:2401.01234']);
      expect((await searchPaperIndex(t.db, 'tidal', 10, { from: '2025-01-01' })).map((r) => r.primaryId)).toEqual(['doi:10.1000/wake.77']);
      expect((await searchPaperIndex(t.db, 'tidal', 10, { to: '2024-12-31' })).map((r) => r.primaryId)).toEqual(['arxiv:2401.01234']);
      const viaAll = await searchAllPapers({ config, db: t.db, log: silentLogger }, 'basins resonate', 5);
      expect(viaAll[0].primaryId).toBe('doi:10.1000/basin.1');
    });

    test('passages and related papers', async () => {
      const p = (await findPaper(t.db, '2401.01234'))!;
      const passages = await paperPassages(t.db, p.id, 'rotor wake', 2);
      expect(passages[0].text).toContain('ten rotor diameters');
      const citers = await relatedPapers(t.db, p, 'turbine wakes', 'citers', 10);
      expect(citers.results.map((r) => r.primaryId)).toEqual(['doi:10.1000/wake.77']);
      const refs = await relatedPapers(t.db, p, 'basin resonance', 'references', 10);
      expect(refs.results.map((r) => r.primaryId)).toEqual(['doi:10.1000/basin.1']);
      const similar = await relatedPapers(t.db, p, 'tidal turbines', 'similar', 1);
      expect(similar.results).toHaveLength(1);
      expect(similar.poolSize).toBeGreaterThanOrEqual(2);
      expect(similar.results[0].signals).toMatchObject({ structural: expect.any(Number), semantic: expect.any(Number) });
    });
  });
});

describe('no paper index', () => {
  test('503 when nothing is indexed and no external index is configured', async () => {
    const t = await openTestDatabase('pglite');
    try {
      const err = await searchAllPapers({ config: loadConfig({}), db: t.db, log: silentLogger }, 'x', 5).catch((e) => e);
      expect(err.status).toBe(503);
      expect(err.message).toContain('TRAWL_PAPER_INDEXES');
    } finally {
      await t.close();
    }
  }, 60_000);
});
