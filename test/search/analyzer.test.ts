/**
 * The search index's analyzer (core/search/analyzer.ts) against the database's own text search: on
 * plain prose it gives the lexemes and positions `to_tsvector('english')` gives, its queries match the
 * way `websearch_to_tsquery` would, and rows written before migration 0008 are analyzed again.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { forEachDatabase, openTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { lexemeOf, toTsquery, toTsvector } from '../../core/search/analyzer.ts';
import { ANALYZER_VERSION, reanalyzeStaleRows, searchPages, upsertPages, type IndexedPage } from '../../core/search/local-index.ts';
import { parseQuery } from '../../core/search/operators.ts';

const PROSE =
  'The tide rises twice a day along the coast, driven by the moon and the sun. Fishermen were reading the ' +
  'tables before they left the harbour; boats waited for the highest water of the running season. ' +
  'Researchers measured currents, studied turbines and published their findings about generators.';

/** `{lexeme: [position+weight, ...]}` of a tsvector's text form. */
function postings(tsv: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const m of tsv.matchAll(/'((?:[^']|'')*)':([0-9A-D,]+)/g)) out[m[1].replace(/''/g, "'")] = m[2].split(',');
  return out;
}

function page(url: string, title: string, content: string): IndexedPage {
  return { teamId: 'team-a', url, host: new URL(url).hostname, path: new URL(url).pathname, title, description: '', content, kind: 'web', filetype: 'html', adult: false };
}

describe('analyzer', () => {
  test('stop words are dropped but keep their positions; words with digits are not stemmed', () => {
    expect(lexemeOf('the')).toBeNull();
    expect(lexemeOf('running')).toBe('run');
    expect(lexemeOf('utf8')).toBe('utf8');
    expect(postings(toTsvector([{ text: 'State of the art: UTF8 encodings', weight: 'A' }]))).toEqual({
      state: ['1A'], art: ['4A'], utf8: ['5A'], encod: ['6A'],
    });
  });

  test('positions run on across fields with their weights; separators split words', () => {
    const tsv = toTsvector([{ text: 'Full-text search', weight: 'A' }, { text: 'pg_dump and search', weight: 'C' }, { text: 'plain', weight: 'D' }]);
    expect(postings(tsv)).toEqual({ full: ['1A'], text: ['2A'], search: ['3A', '7C'], pg: ['4C'], dump: ['5C'], plain: ['8'] });
  });

  test('queries: all words, phrases with their gaps, or, negation; nothing searchable is null', () => {
    expect(toTsquery('running tides')).toBe("'run' & 'tide'");
    expect(toTsquery('"state of the art" -mysql')).toBe("('state' <3> 'art') & !'mysql'");
    expect(toTsquery('tide or moon harbour')).toBe("('tide' | 'moon') & 'harbour'");
    expect(toTsquery('full-text')).toBe("('full' <-> 'text')");
    expect(toTsquery('tide or moon "the harbour" -mysql', 'any')).toBe("('tide' | 'moon' | 'harbour') & !'mysql'");
    expect(toTsquery("it's")).toBeNull(); // `it` and `s` are both stop words
    expect(toTsquery('the of and')).toBeNull();
    expect(toTsquery('-mysql')).toBeNull();
    expect(toTsquery('" ... "')).toBeNull();
  });
});

forEachDatabase((kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('plain prose: the same lexemes and positions as to_tsvector(english)', async () => {
    const [{ v }] = await t.db.query<{ v: string }>(`select setweight(to_tsvector('english', $1), 'C')::text as v`, [PROSE]);
    expect(postings(toTsvector([{ text: PROSE, weight: 'C' }]))).toEqual(postings(v));
  });

  test('the database reads the literals, and phrase gaps match as websearch_to_tsquery does', async () => {
    const text = 'A review of the state of the art in tidal turbines';
    const tsv = toTsvector([{ text, weight: 'C' }]);
    const ours = toTsquery('"state of the art" turbine')!;
    const [r] = await t.db.query<{ hit: boolean; theirs: boolean; miss: boolean }>(
      `select $1::tsvector @@ $2::tsquery as hit, to_tsvector('english', $3) @@ websearch_to_tsquery('english', '"state of the art" turbine') as theirs,
              $1::tsvector @@ $4::tsquery as miss`,
      [tsv, ours, text, toTsquery('"art of the state"')],
    );
    expect(r).toEqual({ hit: true, theirs: true, miss: false });
  });

  test('rows from before migration 0008 are analyzed again, and searches find them', async () => {
    await upsertPages(t.db, [page('https://coast.example/new', 'Harbour lights', 'The harbour lights were glowing.')]);
    // A row as an older analyzer left it: its tsv no longer holds the words of its text.
    await t.db.query(
      `insert into search_index (team_id, url, host, title, content, tsv) values ('team-a', $1, 'coast.example', 'Old tide page', $2, to_tsvector('simple', 'stale'))`,
      ['https://coast.example/old', 'Spring tides were added to the tables.'],
    );
    const find = (query: string) => searchPages(t.db, { parsed: parseQuery(query), source: 'web', limit: 10, highlights: true, teams: ['team-a'] });
    expect((await find('spring tides')).map((h) => h.url)).toEqual([]);
    expect(await reanalyzeStaleRows(t.db)).toBe(1);
    expect(await reanalyzeStaleRows(t.db)).toBe(0);
    const rows = await t.db.query<{ url: string; analyzer: number }>('select url, analyzer from search_index order by url');
    expect(rows).toEqual([{ url: 'https://coast.example/new', analyzer: ANALYZER_VERSION }, { url: 'https://coast.example/old', analyzer: ANALYZER_VERSION }]);
    const hits = await find('spring tides');
    expect(hits.map((h) => h.url)).toEqual(['https://coast.example/old']);
    expect(hits[0].headline).toContain('Spring tides were added');
    expect((await find('glowing harbour')).map((h) => h.url)).toEqual(['https://coast.example/new']);
  });

  test('NUL characters are dropped from stored text; an escaped backslash before u0000 is kept', async () => {
    await upsertPages(t.db, [page('https://coast.example/nul', 'Nul\u0000 title', 'back\\u0000slash and\u0000 nul')]);
    const [row] = await t.db.query<{ title: string; content: string }>(`select title, content from search_index where url = 'https://coast.example/nul'`);
    expect(row).toEqual({ title: 'Nul title', content: 'back\\u0000slash and nul' });
  });
});
