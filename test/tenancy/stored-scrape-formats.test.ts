/**
 * Issue 15 item 11: a format-restricted key reading a stored scrape of its team (made by a key with
 * more formats) through `GET /v2/scrape/{id}`, `/v1/scrape/{id}`, a batch status or its WebSocket gets only the
 * formats it may request, plus the metadata.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';

setDefaultTimeout(90_000);

let site: FixtureSite;
let trawl: AccountsTrawl;
let id: string;
let keys: { open: string; md: string; mdShot: string };

beforeAll(async () => {
  site = serveFixtures({ '/page': '<html><head><title>Quay</title></head><body><main><h1>Quay</h1><p>Boats <b>tie up</b> here.</p><a href="/next">next</a></main></body></html>' });
  trawl = await startAccountsTrawl();
  const open = await trawl.key();
  keys = {
    open: open.key,
    md: (await trawl.key({ team: open.team, formats: ['markdown'] })).key,
    mdShot: (await trawl.key({ team: open.team, formats: ['markdown', 'screenshot'] })).key,
  };
  const res = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['markdown', 'html', 'rawHtml', 'links', 'screenshot'] }, trawl.auth(keys.open));
  if (res.status !== 200) throw new Error(`scrape: ${res.status} ${res.text}`);
  id = res.body.data.metadata.scrapeId;
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

const fields = (data: Record<string, unknown>) => Object.keys(data).sort();

describe('stored scrape read by a restricted key', () => {
  test('a markdown-only key gets markdown and metadata, on v2 and v1', async () => {
    for (const path of [`/v2/scrape/${id}`, `/v1/scrape/${id}`]) {
      const res = await trawl.get(path, trawl.auth(keys.md));
      expect(res.status).toBe(200);
      expect(fields(res.body.data)).toEqual(['markdown', 'metadata']);
      expect(res.body.data.markdown).toContain('Boats');
      expect(res.text).not.toContain('<b>tie up</b>');
    }
  });

  test('a markdown and screenshot key also gets the screenshot', async () => {
    const res = await trawl.get(`/v2/scrape/${id}`, trawl.auth(keys.mdShot));
    expect(fields(res.body.data)).toEqual(['markdown', 'metadata', 'screenshot']);
  });

  test('batch scrape status read by a markdown-only key carries only markdown', async () => {
    const started = await trawl.post('/v2/batch/scrape', { urls: [site.url('/page')], formats: ['markdown', 'html', 'links'] }, trawl.auth(keys.open));
    expect(started.status).toBe(200);
    let status: any;
    for (let i = 0; i < 300; i++) {
      status = (await trawl.get(`/v2/batch/scrape/${started.body.id}`, trawl.auth(keys.md))).body;
      if (status.status === 'completed') break;
      await Bun.sleep(100);
    }
    expect(status.data.length).toBe(1);
    expect(fields(status.data[0])).toEqual(['markdown', 'metadata']);
    const full = (await trawl.get(`/v2/batch/scrape/${started.body.id}`, trawl.auth(keys.open))).body;
    expect(fields(full.data[0])).toEqual(['html', 'links', 'markdown', 'metadata']);
    // The WebSocket of the same job (key as subprotocol) gives the same view.
    const ws = new WebSocket(`${trawl.base.replace(/^http/, 'ws')}/v2/batch/scrape/${started.body.id}`, keys.md);
    const frames: any[] = [];
    await new Promise<void>((resolve) => {
      ws.onmessage = (e) => frames.push(JSON.parse(String(e.data)));
      ws.onclose = () => resolve();
      ws.onerror = () => {};
    });
    const viaWs = [...frames[0].data.data, ...frames.slice(1).map((f) => f.data)];
    expect(viaWs.map(fields)).toEqual([['markdown', 'metadata']]);
  });

  test('an unrestricted key gets every stored format', async () => {
    const res = await trawl.get(`/v2/scrape/${id}`, trawl.auth(keys.open));
    expect(fields(res.body.data)).toEqual(['html', 'links', 'markdown', 'metadata', 'rawHtml', 'screenshot']);
  });
});
