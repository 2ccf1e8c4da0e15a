/**
 * POST /v2/parse in distributed mode: an `api` process and a `worker` process of bin/trawl.ts with
 * their own data directories, sharing PostgreSQL and Redis. The upload crosses from the API to the
 * worker through the blob store in the database (core/jobs/parse.ts), so a document coming back at
 * all shows the hand-over works; the worker, not the API, parses.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startCluster, type Cluster } from '../crawl/cluster.ts';
import { docx, wml } from '../parsers/zip-writer.ts';
import { samplePdf } from './helpers.ts';
import type { TestTrawl } from '../helpers/trawl.ts';
import { upload } from './helpers.ts';

const hasRedis = Bun.which('redis-server') !== null;
let cluster: Cluster;

beforeAll(async () => {
  if (hasRedis) cluster = await startCluster(1);
}, 120_000);
afterAll(() => cluster?.stop(), 60_000);

/** The parts of TestTrawl the upload helper uses. */
const api = () => ({ base: cluster.base }) as TestTrawl;

describe.skipIf(!hasRedis)('api + worker', () => {
  test('a PDF and a DOCX are parsed by the worker', async () => {
    const pdf = await upload(api(), { filename: 'ledger.pdf', contentType: 'application/pdf', body: samplePdf(2, 'Ledger') }, { parsers: [{ type: 'pdf', pages: true }] });
    expect(pdf.status, pdf.text.slice(0, 300)).toBe(200);
    expect(pdf.body.data.metadata).toMatchObject({ title: 'Ledger', numPages: 2, creditsUsed: 2 });
    expect(pdf.body.data.pages).toHaveLength(2);
    const word = await upload(api(), { filename: 'note.docx', body: docx(wml.p('Distributed note.')) });
    expect(word.status).toBe(200);
    expect(word.body.data.markdown).toBe('Distributed note.');
    const again = await fetch(`${cluster.base}/v2/scrape/${pdf.body.data.metadata.scrapeId}`);
    expect(await again.text()).toBe(pdf.text);
  }, 60_000);
});
