#!/usr/bin/env bun
/**
 * The Crawlee side of bench/crawl/pg-docs.ts: CheerioCrawler from a start URL, following same-origin
 * links, converting each page to markdown with turndown (what Trawl's markdown format does), storing
 * nothing. Prints one JSON line: {pages, seconds, peakRssMb}.
 *   bun bench/crawl/crawlee-run.ts http://127.0.0.1:<port>/index.html
 */
import { readFileSync } from 'node:fs';
import TurndownService from 'turndown';

const start = process.argv[2];
if (!start) throw new Error('usage: crawlee-run.ts <start url>');
// A devDependency for this benchmark only (the `crawlee` umbrella package does not install here).
const crawleePackage = '@crawlee/cheerio';
const { CheerioCrawler, Configuration } = (await import(crawleePackage)) as any;
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
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
const t0 = performance.now();
await crawler.run([start]);
const seconds = (performance.now() - t0) / 1000;
const usage = process.cpuUsage();
const hwm = readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\s+(\d+) kB/);
process.stdout.write(`${JSON.stringify({ pages, seconds, chars, cpuSeconds: (usage.user + usage.system) / 1e6, peakRssMb: hwm ? Math.round(Number(hwm[1]) / 1024) : null })}\n`);
