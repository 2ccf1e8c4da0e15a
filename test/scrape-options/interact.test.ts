/**
 * Interact through the HTTP API (compat.md §5; interface.md "POST /v2/scrape/{scrapeId}/interact"):
 * `code` runs against the live page of a scrape with the documented `page` object, in a sandbox with
 * no access to Trawl's process, files or network, under a time limit; `prompt` goes to the LLM (a
 * fake OpenAI-compatible server here) or answers 503 without one; sessions replay the scrape, keep
 * their state between calls, save profiles, end on DELETE or when idle, and are limited in number.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startSite, type Site } from './site.ts';
import { download, pngSize, startOn, type TestTrawl } from './helpers.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';

setDefaultTimeout(60_000);

let site: Site;
let llm: FakeChat;
/** No LLM, three sessions at most. */
let a: TestTrawl;
/** The fake LLM, one session at most, 1.5 s idle limit. */
let b: TestTrawl;

beforeAll(async () => {
  site = startSite();
  llm = startFakeChat();
  a = await startOn({ TRAWL_INTERACT_MAX_SESSIONS: '3' });
  b = await startOn({
    TRAWL_INTERACT_MAX_SESSIONS: '1',
    TRAWL_INTERACT_IDLE_MS: '1500',
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: 'test-key',
    MODEL_NAME: 'fake-model',
  });
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  llm?.stop();
  site?.stop();
}, 60_000);

async function scrapeId(t: TestTrawl, body: Record<string, unknown>): Promise<string> {
  const res = await t.post('/v2/scrape', { maxAge: 0, ...body });
  expect(res.status).toBe(200);
  return res.body.data.metadata.scrapeId;
}

const interact = (t: TestTrawl, id: string, body: Record<string, unknown>) => t.post(`/v2/scrape/${id}/interact`, body);
const stop = (t: TestTrawl, id: string) => fetch(`${t.base}/v2/scrape/${id}/interact`, { method: 'DELETE' }).then(async (r) => ({ status: r.status, body: await r.json() as any }));

describe('code', () => {
  let id: string;
  beforeAll(async () => {
    id = await scrapeId(a, { url: site.url('/form') });
  });

  test('runs against the live page: type, click, read; console output is stdout and result', async () => {
    const res = await interact(a, id, {
      code: `await page.type('#name', 'Ada');
             await page.click('#go');
             console.log(await page.textContent('#out'));
             console.log({ clicks: 0 }, [1, 2]);
             return await page.title();`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, exitCode: 0, killed: false, stderr: '' });
    expect(res.body.stdout).toBe('Hello, Ada!\n{"clicks":0} [1,2]\nForm\n');
    expect(res.body.result).toBe(res.body.stdout);
  });

  test('later calls act on the same page; evaluate, $eval, $$eval, fill, markdown and screenshot', async () => {
    const res = await interact(a, id, {
      code: `console.log(await page.textContent('#out'));
             await page.click('.inc'); await page.click('.inc');
             console.log(await page.$eval('#count', (el) => el.textContent));
             console.log(await page.$$eval('button.inc', (els, extra) => els.length + extra, 10));
             console.log(await page.evaluate((a, b) => a * b + document.querySelectorAll('button').length, 6, 7));
             await page.fill('#name', 'Lin'); await page.click('#go');
             const md = await page.markdown();
             console.log(md.includes('Hello, Lin!'));
             console.log(await page.screenshot());`,
    });
    expect(res.body.exitCode).toBe(0);
    const lines = res.body.stdout.trim().split('\n');
    expect(lines.slice(0, 5)).toEqual(['Hello, Ada!', '2', '12', '45', 'true']);
    const shot = await download(lines[5]);
    expect(shot.status).toBe(200);
    expect(pngSize(shot.bytes).width).toBe(1920);
  });

  test('errors: a throw, a syntax error and a failing page call exit with 1 and say why on stderr', async () => {
    const thrown = await interact(a, id, { code: `console.log('before'); throw new Error('boom');` });
    expect(thrown.status).toBe(200);
    expect(thrown.body).toMatchObject({ success: false, exitCode: 1, killed: false, stdout: 'before\n' });
    expect(thrown.body.stderr).toContain('Error: boom');
    const syntax = await interact(a, id, { code: `const = ;` });
    expect(syntax.body).toMatchObject({ success: false, exitCode: 1 });
    expect(syntax.body.stderr).toContain('SyntaxError');
    const missing = await interact(a, id, { code: `await page.click('#nothing-here');` });
    expect(missing.body.exitCode).toBe(1);
    expect(missing.body.stderr).toContain('page.click failed: no element matches "#nothing-here"');
  });

  test('a busy loop is killed at the time limit and the session goes on', async () => {
    const started = Date.now();
    const res = await interact(a, id, { code: `console.log('spinning'); while (true) {}`, timeout: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, killed: true, exitCode: 137 });
    expect(res.body.stdout).toBe('spinning\n');
    // The loop never ends by itself: any answer at all means it was killed; the bound only catches a hang.
    expect(Date.now() - started).toBeLessThan(60_000);
    const after = await interact(a, id, { code: `return await page.textContent('#out')` });
    expect(after.body).toMatchObject({ success: true, stdout: 'Hello, Lin!\n' });
  });

  test('the code has no access to the Trawl process, its files or the network', async () => {
    const res = await interact(a, id, {
      code: `console.log(typeof process, typeof require, typeof Bun, typeof module, location.href);
             for (const url of [${JSON.stringify(a.base + '/health')}, ${JSON.stringify(site.url('/article?sandbox-fetch'))}, 'file:///etc/passwd']) {
               try { const r = await fetch(url, { mode: 'no-cors' }); console.log('reached', r.type); } catch (e) { console.log('blocked'); }
             }
             const img = new Image(); img.src = ${JSON.stringify(site.url('/article?sandbox-img'))};
             const w = window.open(${JSON.stringify(site.url('/article?popup'))});
             await new Promise((r) => setTimeout(r, 500));
             console.log('done');`,
    });
    expect(res.body.exitCode).toBe(0);
    expect(res.body.stdout).toBe('undefined undefined undefined undefined about:blank\nblocked\nblocked\nblocked\ndone\n');
    for (const path of ['/article?popup', '/article?sandbox-fetch', '/article?sandbox-img']) expect([path, site.count(path)]).toEqual([path, 0]);
  });

  test('DELETE ends the session (duration, credits); later calls answer 410, a second DELETE 404', async () => {
    const ended = await stop(a, id);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ success: true, creditsBilled: 1 });
    expect(ended.body.sessionDurationMs).toBeGreaterThan(0);
    const gone = await interact(a, id, { code: 'return 1' });
    expect(gone.status).toBe(410);
    expect(gone.body.success).toBe(false);
    const again = await stop(a, id);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('Browser session not found.');
  });
});

describe('sessions', () => {
  test('the first call replays the scrape, actions included', async () => {
    const id = await scrapeId(a, {
      url: site.url('/form'),
      actions: [{ type: 'click', selector: '#name' }, { type: 'write', text: 'Bob' }, { type: 'click', selector: '#go' }, { type: 'scrape' }],
    });
    const res = await interact(a, id, { code: `return await page.textContent('#out')` });
    expect(res.body.stdout).toBe('Hello, Bob!\n');
    await stop(a, id);
  });

  test('a profile is used by the session and saved when it ends; meanwhile it is locked', async () => {
    await scrapeId(a, { url: site.url('/login?user=ann&theme=red'), profile: { name: 'ia' } });
    const id = await scrapeId(a, { url: site.url('/account'), profile: { name: 'ia' } });
    const res = await interact(a, id, {
      code: `console.log(await page.textContent('#who'));
             await page.goto(${JSON.stringify(site.url('/login?user=zed&theme=gold'))});
             return await page.textContent('h1');`,
    });
    expect(res.body.stdout).toBe('Logged in as ann.\nSigned in\n');
    const locked = await a.post('/v2/scrape', { url: site.url('/account'), profile: { name: 'ia' }, maxAge: 0 });
    expect(locked.status).toBe(409);
    expect((await stop(a, id)).status).toBe(200);
    const after = await a.post('/v2/scrape', { url: site.url('/account'), profile: { name: 'ia' }, maxAge: 0 });
    expect(after.body.data.markdown).toContain('Logged in as zed.');
    expect(after.body.data.markdown).toContain('Theme: gold.');
  });

  test('two first calls at once share one session and run one after the other', async () => {
    const id = await scrapeId(a, { url: site.url('/form') });
    const [x, y] = await Promise.all([
      interact(a, id, { code: `await page.click('.inc'); return await page.textContent('#count')` }),
      interact(a, id, { code: `await page.click('.inc'); return await page.textContent('#count')` }),
    ]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect([x.body.stdout, y.body.stdout].sort()).toEqual(['1\n', '2\n']);
    await stop(a, id);
  });

  test('unknown, malformed and zero data retention scrapes', async () => {
    expect((await interact(a, '0190f5a0-0000-7000-8000-00000000feed', { code: 'return 1' })).status).toBe(404);
    expect((await interact(a, 'nope', { code: 'return 1' })).status).toBe(404);
    const zdr = await scrapeId(a, { url: site.url('/article'), zeroDataRetention: true });
    const res = await interact(a, zdr, { code: 'return 1' });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('zero data retention');
  });

  test('request validation', async () => {
    const id = await scrapeId(a, { url: site.url('/article') });
    for (const body of [{}, { code: 'return 1', language: 'python' }, { code: 'return 1', timeout: 0 }, { code: 'return 1', timeout: 301 }]) {
      const res = await interact(a, id, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
  });

  test('a prompt without an LLM configured is a 503 saying what to set', async () => {
    const id = await scrapeId(a, { url: site.url('/article') });
    const res = await interact(a, id, { prompt: 'What is this page about?' });
    expect(res.status).toBe(503);
    expect(res.body.error).toContain('OPENAI_BASE_URL');
    expect(res.body.error).toContain('MODEL_NAME');
  });
});

describe('prompt, session limits and idle expiry', () => {
  test('a prompt is answered by the LLM acting on the page with tools', async () => {
    const id = await scrapeId(b, { url: site.url('/form') });
    const res = await interact(b, id, { prompt: 'Please type "Grace" into #name and then click #go' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, killed: false, output: 'The page title is "Form". Tools run: 2.' });
    expect(llm.requests[0]!.headers.get('authorization')).toBe('Bearer test-key');
    expect(llm.requests[0]!.body.model).toBe('fake-model');
    expect(llm.requests[0]!.body.messages[1].content).toContain('Greeting form');
    const check = await interact(b, id, { code: `return await page.textContent('#out')` });
    expect(check.body.stdout).toBe('Hello, Grace!\n');

    // One session at most on this node: another scrape's first call is refused.
    const other = await scrapeId(b, { url: site.url('/article') });
    const busy = await interact(b, other, { code: 'return 1' });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBeTruthy();

    // Idle for longer than 1.5 s: the session is gone, and its slot is free again.
    await Bun.sleep(2500);
    const gone = await interact(b, id, { code: 'return 1' });
    expect(gone.status).toBe(410);
    expect(gone.body.error).toContain('idle');
    const free = await interact(b, other, { code: 'return 40 + 2' });
    expect(free.body.stdout).toBe('42\n');
  });
});
