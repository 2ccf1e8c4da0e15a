#!/usr/bin/env bun
/**
 * The Crawlee side of bench/crawl/pg-docs.ts: CheerioCrawler from a start URL, following same-origin
 * links, converting each page to markdown with turndown (what Trawl's markdown format does), storing
 * nothing. With a round count above 1 the same crawl runs again in the same process, each round with
 * a new crawler and new in-memory storage, so the later rounds show the warmed-up (JIT-compiled) rate.
 * Prints one JSON line per round: {round, pages, seconds, chars, cpuSeconds, peakRssMb}. With
 * `--stdin` each round starts when a line arrives on standard input (pg-docs.ts alternates the two
 * sides round by round).
 *   bun bench/crawl/crawlee-run.ts http://127.0.0.1:<port>/index.html [rounds] [--stdin]
 */
import { readFileSync } from 'node:fs';
import TurndownService from 'turndown';

const start = process.argv[2];
const rounds = Number(process.argv[3] ?? 1);
if (!start || !(rounds >= 1)) throw new Error('usage: crawlee-run.ts <start url> [rounds] [--stdin]');
const stdinLines = process.argv.includes('--stdin') ? console[Symbol.asyncIterator]() : undefined;
// A devDependency for this benchmark only (the `crawlee` umbrella package does not install here).
const crawleePackage = '@crawlee/cheerio';
const { CheerioCrawler, Configuration } = (await import(crawleePackage)) as any;
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });

for (let round = 1; round <= rounds; round++) {
  if (stdinLines && (await stdinLines.next()).done) break;
  let pages = 0;
  let chars = 0;
  const crawler = new CheerioCrawler(
    {
      maxRequestsPerCrawl: 5000,
      maxRequestRetries: 1,
      async requestHandler({ $, enqueueLinks }: { $: any; enqueueLinks: (o: object) => Promise<unknown> }) {
        chars += turndown.turndown($('body').html() ?? '').length;
        pages++;
        await enqueueLinks({ strategy: 'same-origin' });
      },
    },
    new Configuration({ persistStorage: false }),
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await crawler.run([start]);
  const seconds = (performance.now() - t0) / 1000;
  const usage = process.cpuUsage(cpu0);
  const hwm = readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\s+(\d+) kB/);
  process.stdout.write(`${JSON.stringify({ round, pages, seconds, chars, cpuSeconds: (usage.user + usage.system) / 1e6, peakRssMb: hwm ? Math.round(Number(hwm[1]) / 1024) : null })}\n`);
}
