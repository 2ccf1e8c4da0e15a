/**
 * External research paper indexes (TRAWL_PAPER_INDEXES): results of indexes speaking the
 * /v2/search/research API are merged with the local index (interleaved, duplicates dropped), a
 * failing index is skipped, and with nothing else to answer the search is a 503.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { searchAllPapers } from '../../core/search/papers/search.ts';
import { mergePaperLists } from '../../core/search/papers/external.ts';
import type { PaperResult } from '../../core/search/papers/store.ts';
import { json, startFake, type Fake } from '../fakes/server.ts';

const paper = (id: string, title: string, score = 1): PaperResult => ({ paperId: id, primaryId: id, ids: { [id.split(':')[0]]: [id.split(':')[1]] }, title, abstract: `${title}.`, score });

let good: Fake;
let broken: Fake;
const noLocal = { query: async () => [] }; // an empty local paper table

beforeAll(() => {
  good = startFake(
    (req) => {
      if (req.path !== '/v2/search/research/papers') return json({ type: 'about:blank', title: 'Not Found', detail: 'no route', status: 404 }, 404);
      if (req.headers.get('authorization') !== 'Bearer sekrit') return json({ type: 'about:blank', title: 'Unauthorized', detail: 'bad key', status: 401 }, 401);
      return json({ success: true, results: [paper('arxiv:1111.0001', `About ${req.query.get('query')}`), paper('doi:10.1/x', 'Second')].slice(0, Number(req.query.get('k'))) });
    },
    () => json({ type: 'about:blank', title: 'Internal Server Error', detail: 'index down', status: 500 }, 500),
  );
  broken = startFake(() => json({}), () => json({ type: 'about:blank', title: 'Internal Server Error', detail: 'index down', status: 500 }, 500));
  broken.mode = 'server-error';
});
afterAll(() => [good, broken].forEach((f) => f.stop()));

describe('external paper indexes', () => {
  test('results of a configured index, with its key, merged; a broken index is skipped', async () => {
    const config = loadConfig({ TRAWL_PAPER_INDEXES: `http://sekrit@${good.origin.slice(7)}/v2/search/research,${broken.origin}/v2/search/research` });
    const results = await searchAllPapers({ config, db: noLocal, log: silentLogger }, 'tides', 5, { authors: ['Doe'] });
    expect(results.map((r) => r.title)).toEqual(['About tides', 'Second']);
    const req = good.requests.at(-1)!;
    expect(Object.fromEntries(req.query)).toEqual({ query: 'tides', k: '5', authors: 'Doe' });
    expect(broken.requests).toHaveLength(1);
  });

  test('503 when the only index fails and nothing is stored locally', async () => {
    const config = loadConfig({ TRAWL_PAPER_INDEXES: `${broken.origin}/v2/search/research` });
    const err = await searchAllPapers({ config, db: noLocal, log: silentLogger }, 'tides', 5).catch((e) => e);
    expect(err.status).toBe(503);
    expect(err.message).toContain('HTTP 500: index down');
  });

  test('merging interleaves lists and drops papers sharing an id', () => {
    const a = [paper('arxiv:1', 'A1'), paper('arxiv:2', 'A2'), paper('arxiv:3', 'A3')];
    const b = [{ ...paper('doi:9', 'B1'), ids: { doi: ['9'], arxiv: ['1'] } }, paper('doi:8', 'B2')];
    expect(mergePaperLists([a, b], 10).map((p) => p.title)).toEqual(['A1', 'A2', 'B2', 'A3']);
    expect(mergePaperLists([a, b], 2).map((p) => p.title)).toEqual(['A1', 'A2']);
  });
});
