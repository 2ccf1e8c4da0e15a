/**
 * Issue 21 item 1, the classes whose fix is a limit: a PDF that could not be parsed in the time left
 * (`pdf-limits`: a real 40-page PDF from a slow fixture server, fixed by a larger `timeout`), and the two
 * fixes outside the request: a single scrape refused 402 for lack of credits, and a key refused 403
 * for an endpoint group. For those two the validation re-runs the request unchanged: before the
 * operator's change it reports `needs-operator` naming the change; after it (credits added, group
 * granted), asking again re-tests it and the re-run succeeds. The auth cache is off so a key's new
 * restrictions apply at once.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { makePdf, words } from '../parsers/make-pdf.ts';

setDefaultTimeout(120_000);

let trawl: AccountsTrawl;
let site: FixtureSite;
const page = (title: string, links = '') => `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${'Some text about the topic of this page. '.repeat(5)}</p>${links}</body></html>`;

beforeAll(async () => {
  const pages = Array.from({ length: 40 }, (_, p) => ({
    items: Array.from({ length: 30 }, (_, i) => ({ x: 50, y: 60 + i * 20, size: 11, text: `Page ${p + 1} line ${i}: ${words(8, p * 100 + i).join(' ')}` })),
  }));
  const pdf = makePdf(pages, { title: 'Manual' });
  site = serveFixtures({
    '/': page('Home', '<a href="/a">a</a> <a href="/b">b</a>'),
    '/a': page('A'),
    '/b': page('B'),
    // A slow server: the PDF arrives when less time is left than the parser needs to start a page.
    '/manual.pdf': async () => {
      await Bun.sleep(800);
      return new Response(pdf as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/pdf' } });
    },
  });
  trawl = await startAccountsTrawl({ TRAWL_AUTH_CACHE_MS: '0' });
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

const ask = (key: string, question: string) => trawl.post('/v2/support/ask', { question }, trawl.auth(key));

describe('POST /v2/support/ask: limits', () => {
  test('pdf-limits: a 40-page PDF with no time to parse a page; the fix raises the timeout and the re-run succeeds', async () => {
    const k = await trawl.key({ credits: 1000 });
    const original = { url: site.url('/manual.pdf'), timeout: 1000 };
    const failed = await trawl.post('/v2/scrape', original, trawl.auth(k.key));
    // The parser's own error; on a loaded machine the request's 1 s may end first (408 for a .pdf URL).
    const parserSaid = failed.body.code === 'SCRAPE_PDF_INSUFFICIENT_TIME_ERROR';
    expect(parserSaid || failed.status === 408).toBe(true);
    const r = await ask(k.key, `Why did ${original.url} fail?`);
    expect(r.status).toBe(200);
    expect(r.body.answer).toContain('Class: pdf-limits.');
    expect(r.body.answer).toContain('maxPages');
    expect(r.body.confidence).toBe(parserSaid ? 'high' : 'medium');
    expect(r.body.fixParameters).toEqual({ timeout: 60_000 });
    expect(r.body.validation).toMatchObject({ tested: true, result: 'success' });
    expect(r.body.validation.evidence).toMatch(/content \d{4,} characters/);
    // A script applies fixParameters unchanged to the original request.
    const again = await trawl.post('/v2/scrape', { ...original, ...r.body.fixParameters }, trawl.auth(k.key));
    expect(again.status).toBe(200);
    expect(again.body.data.markdown).toContain('Page 40 line 29');
  });

  test('credits: a single scrape refused 402; needs-operator until credits are added, then the re-run succeeds', async () => {
    const k = await trawl.key({ credits: 0 });
    const original = { url: site.url('/a'), formats: ['markdown'] };
    expect((await trawl.post('/v2/scrape', original, trawl.auth(k.key))).status).toBe(402);

    const before = await ask(k.key, 'why was my scrape refused?');
    expect(before.body.answer).toContain('Class: credits.');
    expect(before.body.fixParameters).toEqual({});
    expect(before.body.validation).toMatchObject({ tested: true, result: 'needs-operator' });
    expect(before.body.validation.evidence).toContain('402');
    expect(before.body.validation.evidence).toContain('trawl teams credits');
    expect(await trawl.credits(k.team)).toBe(0);

    const added = await trawl.admin('teams', 'credits', k.team, '--add', '5');
    expect(added.code).toBe(0);
    const after = await ask(k.key, 'why was my scrape refused?');
    expect(after.body.answer).toContain('Class: credits.');
    expect(after.body.validation).toMatchObject({ tested: true, result: 'success' });
    expect(after.body.validation.evidence).toContain('with the original request unchanged');
    const again = await trawl.post('/v2/scrape', { ...original, ...after.body.fixParameters }, trawl.auth(k.key));
    expect(again.status).toBe(200);
  });

  test('key-restriction: a key without the crawl group refused 403; needs-operator until the group is granted, then the re-run succeeds', async () => {
    const k = await trawl.key({ credits: 1000, endpoints: ['scrape'] });
    const original = { url: site.url('/'), limit: 2 };
    const refused = await trawl.post('/v2/crawl', original, trawl.auth(k.key));
    expect(refused.status).toBe(403);

    const before = await ask(k.key, 'my crawl gets a 403');
    expect(before.body.answer).toContain('Class: key-restriction.');
    expect(before.body.fixParameters).toEqual({});
    expect(before.body.validation).toMatchObject({ tested: true, result: 'needs-operator' });
    expect(before.body.validation.evidence).toContain('--endpoints scrape,crawl');

    expect((await trawl.admin('keys', 'restrict', k.id, '--endpoints', 'scrape,crawl')).code).toBe(0);
    const after = await ask(k.key, 'my crawl gets a 403');
    expect(after.body.answer).toContain('Class: key-restriction.');
    expect(after.body.validation).toMatchObject({ tested: true, result: 'success' });
    expect(after.body.validation.evidence).toMatch(/completed, [12] page\(s\)/);
    const again = await trawl.post('/v2/crawl', { ...original, ...after.body.fixParameters }, trawl.auth(k.key));
    expect(again.status).toBe(200);
  });
});
