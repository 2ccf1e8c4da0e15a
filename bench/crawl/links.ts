#!/usr/bin/env bun
/**
 * Link classification of a crawl (core/crawl/discovery.ts `classify`) over the links of the 1,169
 * pg-docs pages (apt-get install -y postgresql-doc-15): each page's links (its `href`s made absolute,
 * duplicates dropped, as the links format gives them) judged against a fresh crawl's options and a
 * robots.txt, pages one after the other as a crawl's completions run them. Prints CPU ms per page for
 * several crawls in one process (the first includes compiling). `--root <dir>` runs another checkout's
 * discovery.ts (an old copy of the repository) for a same-machine comparison.
 *
 *   bun bench/crawl/links.ts
 *   bun bench/crawl/links.ts --root /tmp/old-checkout
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { root: { type: 'string' }, rounds: { type: 'string', default: '6' } } });
const root = args.root ?? join(import.meta.dir, '..', '..');
const { classify, crawlContext } = await import(join(root, 'core/crawl/discovery.ts'));
const { resolveCrawlerOptions } = await import(join(root, 'core/crawl/options.ts'));

const DIR = '/usr/share/doc/postgresql-doc-15/html';
const ORIGIN = 'http://127.0.0.1:40123';
const pages: string[][] = [];
for (const file of readdirSync(DIR).filter((f) => f.endsWith('.html'))) {
  const html = readFileSync(join(DIR, file), 'latin1');
  const base = `${ORIGIN}/${file}`;
  const links = new Set<string>();
  for (const m of html.matchAll(/href="([^"]+)"/g)) {
    try {
      links.add(new URL(m[1], base).href);
    } catch {}
  }
  pages.push([...links]);
}
// robots.txt as the crawl stores it (crawl_robots), read through a stand-in for the database.
const deps = { db: { query: async () => [{ body: 'User-agent: *\nDisallow: /private/\n' }] }, log: { debug() {} } };

for (let round = 1; round <= Number(args.rounds); round++) {
  const ctx = crawlContext(`bench-${round}`, resolveCrawlerOptions({ url: `${ORIGIN}/index.html`, limit: 5000 }));
  const cpu0 = process.cpuUsage();
  let links = 0;
  let accepted = 0;
  for (const found of pages) {
    const d = await classify(deps, ctx, found, 1);
    links += found.length;
    accepted += d.accept.length;
  }
  const cpu = process.cpuUsage(cpu0);
  const ms = (cpu.user + cpu.system) / 1000;
  process.stdout.write(`crawl ${round}: ${pages.length} pages, ${links} links, ${accepted} accepted, ${ms.toFixed(0)} CPU ms = ${(ms / pages.length).toFixed(3)} ms/page\n`);
}
