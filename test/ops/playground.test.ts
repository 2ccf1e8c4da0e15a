/**
 * The playground at / (issue 24 scope 5) in real Chromium against a real Trawl with keys on: the
 * page asks for the key and keeps it in the tab (sessionStorage, never localStorage); a scrape of a
 * fixture page shows its markdown, HTML, links and screenshot; a crawl shows pages arriving over the
 * WebSocket while it runs; the page links to /docs and its CSP blocks nothing of its own. A screenshot
 * of the playground itself is checked: a PNG of the viewport's size with real content.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../plugins/engine/browser/launch.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';

const profile = mkdtempSync(join(tmpdir(), 'trawl-playground-'));
let site: FixtureSite;
let trawl: TestTrawl;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

/** A slow page, so the crawl is still running when the first pages arrive. */
const slow = (html: string, ms: number) => async () => {
  await Bun.sleep(ms);
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
};

beforeAll(async () => {
  const nav = '<nav><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a></nav>';
  site = serveFixtures({
    '/': `<html><head><title>Harbour</title></head><body>${nav}<main><h1>Harbour notes</h1><p>Boats leave at dawn when the tide turns, and come back before the evening wind rises over the dunes.</p><p><a href="/next">Next page</a></p></main></body></html>`,
    '/next': `<html><head><title>Next</title></head><body>${nav}<main><h1>Next</h1><p>The page after the harbour notes.</p></main></body></html>`,
    '/a': slow(`<html><head><title>Page A</title></head><body>${nav}<main><h1>A</h1><p>First page of the crawl, about nets.</p></main></body></html>`, 300),
    '/b': slow(`<html><head><title>Page B</title></head><body>${nav}<main><h1>B</h1><p>Second page of the crawl, about sails.</p></main></body></html>`, 1500),
    '/c': slow(`<html><head><title>Page C</title></head><body>${nav}<main><h1>C</h1><p>Third page of the crawl, about tides.</p></main></body></html>`, 5000),
  });
  trawl = await startTrawl({ TRAWL_LOG_LEVEL: 'silent' });
  browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, userDataDir: join(profile, 'chrome') });
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 401/.test(m.text())) pageErrors.push(m.text());
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await trawl?.stop();
  site?.stop();
  rmSync(profile, { recursive: true, force: true });
});

const text = (selector: string) => page.$eval(selector, (el) => el.textContent ?? '');

describe('playground', () => {
  test('served at / with a CSP, links to /docs, and asks for the key when the server wants one', async () => {
    const res = await page.goto(`${trawl.base}/`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(await page.$eval('a[href="/docs"]', (a) => a.textContent)).toContain('/docs');
    // Scrapes may run keyless; a crawl needs a key: the page asks for it.
    await page.type('#crawl-url', site.url('/'));
    await page.click('#crawl-go');
    await page.waitForFunction(() => document.querySelector('#key-status')?.textContent?.includes('asks for an API key'), { timeout: 30_000 });
    expect(await text('#crawl-status')).toMatch(/key/i);
    expect(await page.$$eval('#pages li', (l) => l.length)).toBe(0);
  }, 60_000);

  test('keeps the key in the tab only and scrapes: markdown, HTML, links and screenshot shown', async () => {
    await page.type('#key', trawl.adminKey!);
    await page.click('#key-save');
    await page.type('#scrape-url', site.url('/'));
    expect(await page.evaluate(() => [sessionStorage.getItem('trawl-playground-key'), localStorage.length])).toEqual([trawl.adminKey!, 0]);
    await page.click('#scrape-formats input[value="html"]');
    await page.click('#scrape-formats input[value="links"]');
    await page.click('#scrape-formats input[value="screenshot"]');
    await page.click('#scrape-go');
    await page.waitForFunction(() => document.querySelector('#scrape-status')?.textContent?.startsWith('Done'), { timeout: 90_000 });
    const markdown = await text('#out-markdown pre');
    expect(markdown).toContain('# Harbour notes');
    expect(markdown).toContain('Boats leave at dawn');
    expect(await text('#out-html pre')).toMatch(/<h1[^>]*>Harbour notes<\/h1>/);
    const links = await page.$$eval('#out-links li a', (as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(links).toContain(site.url('/next'));
    // The page's screenshot (a blob URL of the server) is loaded and shown.
    await page.waitForFunction(() => ((document.querySelector('#out-screenshot img') as HTMLImageElement)?.naturalWidth ?? 0) > 0, { timeout: 30_000 });
    const size = await page.$eval('#out-screenshot img', (img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight]);
    expect(size[0]).toBeGreaterThan(300);
    expect(size[1]).toBeGreaterThan(200);
  }, 120_000);

  test('a crawl shows its pages arriving over the WebSocket while it runs', async () => {
    // Record (pages shown, status) at every change of the crawl panel.
    await page.evaluate(() => {
      const w = window as unknown as { samples: [number, string][] };
      w.samples = [];
      const record = () => w.samples.push([document.querySelectorAll('#pages li').length, document.querySelector('#crawl-status')?.textContent ?? '']);
      new MutationObserver(record).observe(document.querySelector('main')!, { subtree: true, childList: true, characterData: true });
    });
    await page.click('#crawl-go'); // the URL typed in the first test, now with the key
    await page.waitForFunction(() => document.querySelector('#crawl-status')?.textContent?.startsWith('Crawl done'), { timeout: 90_000 });
    const titles = await page.$$eval('#pages li .title', (els) => els.map((e) => e.textContent));
    expect(titles.sort()).toEqual(['Harbour', 'Next', 'Page A', 'Page B', 'Page C']);
    expect(await text('#crawl-count')).toBe('5');
    const samples = await page.evaluate(() => (window as unknown as { samples: [number, string][] }).samples);
    // Some pages were on screen while the crawl still ran, before all of them were.
    expect(samples.some(([n, status]) => n > 0 && n < 5 && status.startsWith('Crawling'))).toBe(true);
    // A page of the crawl opens in the document panes.
    await page.click('#pages li:last-child');
    expect(await text('#out-markdown pre')).toMatch(/^# (A|B|C|Next|Harbour notes)/);
  }, 120_000);

  test('a screenshot of the playground is a PNG of the viewport with real content, and nothing was blocked', async () => {
    const png = Buffer.from(await page.screenshot({ type: 'png' }));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 900]); // IHDR width, height
    // Decode it in a blank page and count colours: a blank or failed render has one or two.
    const blank = await browser.newPage();
    const colours = await blank.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const g = canvas.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const data = g.getImageData(0, 0, img.width, img.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return seen.size;
    }, png.toString('base64'));
    await blank.close();
    expect(colours).toBeGreaterThan(20);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
