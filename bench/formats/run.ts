#!/usr/bin/env bun
/**
 * Formats benchmark (issue 16): milliseconds per page of each new format on fixture pages, and the
 * audio extraction time and peak RSS of ffmpeg for a 10-minute track made by ffmpeg here.
 *
 * - images, attributes, rawBase64 (pure formats): `buildDocument` on the fixture pages of
 *   test/fixtures/pages (real-world-like articles, 5–40 KB), the format alone, `--rounds` passes; the
 *   markdown format alone is the baseline row;
 * - branding (browser): whole scrapes of the light and dark fixture pages in Chromium, against whole
 *   scrapes of the same pages asking for markdown in the browser (the branding script's own cost is
 *   the difference);
 * - audio and video: whole scrapes of a page with a 30 s track served on 127.0.0.1;
 * - audio extraction: formats/media/ffmpeg.ts `toMp3` on a 10-minute WAV (44.1 kHz stereo), with
 *   ffmpeg run under GNU time for its peak RSS.
 *
 *   bun bench/formats/run.ts [--rounds 20] [--minutes 10]
 *
 * Needs no network beyond 127.0.0.1, Chromium at /usr/bin/chromium and Debian's ffmpeg. Prints a
 * table and a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from '../../core/registry.ts';
import { buildDocument, formatPlugins, runContext, runScrape } from '../../core/pipeline/scrape.ts';
import { resolveScrapeOptions } from '../../core/pipeline/scrape-options.ts';
import type { EngineResponse } from '../../core/plugin.ts';
import { toMp3 } from '../../formats/media/ffmpeg.ts';
import { contractConfig, contractContext } from '../../test/contracts/suites/context.ts';
import { serveFixtures } from '../../test/helpers/fixture-site.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' }, minutes: { type: 'string', default: '10' } } });
const rounds = Number(values.rounds);
const minutes = Number(values.minutes);
const root = join(import.meta.dir, '../..');
const registry = new Registry();
const plugins = await formatPlugins(registry);
const config = contractConfig();
const rows: { format: string; where: string; pages: number; msPerPage: number }[] = [];

// Pure formats on the fixture pages.
const pagesDir = join(root, 'test/fixtures/pages');
const pages = readdirSync(pagesDir).filter((f) => f.endsWith('.html')).map((f) => readFileSync(join(pagesDir, f), 'utf8'));
const pureFormats: [string, unknown][] = [
  ['markdown', 'markdown'],
  ['images', 'images'],
  ['attributes', { type: 'attributes', selectors: [{ selector: 'a[href]', attribute: 'href' }, { selector: 'img', attribute: 'src' }, { selector: 'meta[property^="og:"]', attribute: 'content' }] }],
  ['rawBase64', 'rawBase64'],
];
for (const [name, spec] of pureFormats) {
  const options = resolveScrapeOptions({ formats: [spec], timeout: 60_000 }, plugins);
  let total = 0;
  let n = 0;
  for (let r = 0; r < rounds + 1; r++) {
    for (const html of pages) {
      const url = 'http://127.0.0.1:9/article';
      const response: EngineResponse = { url, statusCode: 200, headers: {}, contentType: 'text/html', body: new TextEncoder().encode(html), text: html, engine: 'fetch' };
      const req = { scrapeId: 'bench', url, sourceURL: url, options };
      const run = runContext(req, { config, log: contractContext().log, blobs: contractContext().blobs });
      const t = performance.now();
      await buildDocument(response, req, { registry }, run);
      const ms = performance.now() - t;
      run.end();
      if (r > 0) {
        total += ms; // round 0 warms up
        n++;
      }
    }
  }
  rows.push({ format: name, where: `buildDocument, ${pages.length} fixture pages x ${rounds}`, pages: n, msPerPage: total / n });
}

// Browser and media formats: whole scrapes against a local site.
const media = mkdtempSync(join(tmpdir(), 'trawl-bench-formats-'));
const ff = (args: string[]) => {
  const r = Bun.spawnSync(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
};
ff(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=30', join(media, 'track.wav')]);
ff(['-f', 'lavfi', '-i', 'testsrc=duration=30:size=320x240:rate=15', '-f', 'lavfi', '-i', 'sine=duration=30', '-c:v', 'mpeg4', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', join(media, 'clip.mp4')]);
const site = serveFixtures({
  '/light': readFileSync(join(root, 'test/fixtures/branding/light.html'), 'utf8'),
  '/dark': readFileSync(join(root, 'test/fixtures/branding/dark.html'), 'utf8'),
  '/episode': '<html><body><h1>Episode</h1><audio src="/track.wav"></audio><video src="/clip.mp4"></video></body></html>',
  '/track.wav': { body: new Uint8Array(readFileSync(join(media, 'track.wav'))), headers: { 'content-type': 'audio/wav' } },
  '/clip.mp4': { body: new Uint8Array(readFileSync(join(media, 'clip.mp4'))), headers: { 'content-type': 'video/mp4' } },
});
async function scrapes(label: string, formats: unknown[], paths: string[], count: number, where: string, extra: Record<string, unknown> = {}) {
  const options = resolveScrapeOptions({ formats, timeout: 120_000, blockAds: false, maxAge: 0, storeInCache: false, ...extra }, plugins);
  let total = 0;
  for (let i = 0; i <= count; i++) {
    const url = site.url(paths[i % paths.length]!);
    const ctx = contractContext(120_000, config);
    const t = performance.now();
    const doc = await runScrape({ scrapeId: `b${i}`, url, sourceURL: url, options }, { config, log: ctx.log, registry, blobs: ctx.blobs });
    if (doc.warning) throw new Error(`${label}: ${doc.warning}`);
    if (i > 0) total += performance.now() - t; // the first scrape starts the browser
  }
  rows.push({ format: label, where, pages: count, msPerPage: total / count });
}
const browserRounds = Math.max(4, Math.round(rounds / 2));
await scrapes('markdown (browser)', ['markdown'], ['/light', '/dark'], browserRounds, 'whole scrape in Chromium, light and dark pages', { waitFor: 1 });
await scrapes('branding', ['branding'], ['/light', '/dark'], browserRounds, 'whole scrape in Chromium, light and dark pages');
await scrapes('audio', ['audio'], ['/episode'], 3, 'whole scrape, 30 s WAV (5.3 MB) fetched and made MP3');
await scrapes('video', ['video'], ['/episode'], 3, 'whole scrape, 30 s MP4 fetched and stored');
for (const e of await registry.loaded('engine')) await e.close?.();
site.stop();

// Audio extraction of a long track: time and ffmpeg's peak RSS (GNU time).
const longWav = join(media, 'long.wav');
ff(['-f', 'lavfi', '-i', `sine=frequency=330:duration=${minutes * 60}`, '-ac', '2', '-ar', '44100', longWav]);
const wav = new Uint8Array(readFileSync(longWav));
const rssFile = join(media, 'rss');
const wrapper = join(media, 'ffmpeg-timed');
writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/time -f '%M' -o '${rssFile}' ffmpeg "$@"\n`);
chmodSync(wrapper, 0o755);
const t = performance.now();
const mp3 = await toMp3(wav, { path: wrapper, timeoutMs: 600_000, maxBytes: 100 * 1024 * 1024 });
const extractMs = performance.now() - t;
const peakRssKb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
rmSync(media, { recursive: true, force: true });

console.log('format                 ms/page   pages  where');
for (const r of rows) console.log(`${r.format.padEnd(22)} ${r.msPerPage.toFixed(2).padStart(8)} ${String(r.pages).padStart(7)}  ${r.where}`);
console.log(`audio extraction: ${minutes}-minute WAV (${(wav.byteLength / 1e6).toFixed(1)} MB) -> MP3 ${(mp3.byteLength / 1e6).toFixed(1)} MB in ${(extractMs / 1000).toFixed(2)} s, ffmpeg peak RSS ${(peakRssKb / 1024).toFixed(1)} MB`);
console.log(JSON.stringify({ rows, audioExtraction: { minutes, wavBytes: wav.byteLength, mp3Bytes: mp3.byteLength, ms: Math.round(extractMs), ffmpegPeakRssKb: peakRssKb } }));
