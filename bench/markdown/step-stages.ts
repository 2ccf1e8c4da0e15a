#!/usr/bin/env bun
/**
 * Where the markdown step's CPU goes, stage by stage (parseHtml, basicClean, absolutizeUrls,
 * extractMainContent, nodesToMarkdown: the production order of cleanDom with onlyMainContent), in ms
 * of CPU time (user + system, `process.cpuUsage`) per MiB of input HTML, on the inputs of step.ts (the
 * five largest postgresql-doc-15 pages and the 40 largest joined). With `--base DIR` (an older copy
 * of the code, e.g. `git archive <rev> | tar -x -C DIR` with node_modules linked) the old code runs the
 * same stages alternately with the new, page by page (the order flipped every round), and the table
 * gets the ratio new/old per stage: on a loaded machine both sides are slowed alike.
 *
 *   bun bench/markdown/step-stages.ts [--rounds 6] [--base /tmp/old]
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '6' }, base: { type: 'string' } } });
const DOCS = '/usr/share/doc/postgresql-doc-15/html';
const URL = 'https://www.postgresql.org/docs/15/page.html';

async function load(root: string) {
  const { parseHtml, bodyOf } = await import(join(root, 'parsers/html/dom.ts'));
  const { basicClean } = await import(join(root, 'parsers/html/basic-clean.ts'));
  const { absolutizeUrls } = await import(join(root, 'parsers/html/urls.ts'));
  const { extractMainContent } = await import(join(root, 'parsers/html/main-content.ts'));
  const { nodesToMarkdown } = await import(join(root, 'formats/markdown/render.ts'));
  return { parseHtml, bodyOf, basicClean, absolutizeUrls, extractMainContent, nodesToMarkdown };
}
type Impl = Awaited<ReturnType<typeof load>>;

const sides: { name: string; impl: Impl }[] = [{ name: 'new', impl: await load(resolve(import.meta.dir, '../..')) }];
if (args.base) sides.unshift({ name: 'old', impl: await load(resolve(args.base)) });

const files = readdirSync(DOCS).filter((f) => f.endsWith('.html')).map((f) => ({ f, size: statSync(join(DOCS, f)).size })).sort((a, b) => b.size - a.size);
const pages = files.slice(0, 5).map(({ f }) => readFileSync(join(DOCS, f), 'utf8'));
const bodies = files.slice(0, 40).map(({ f }) => readFileSync(join(DOCS, f), 'utf8').replace(/^[\s\S]*?<body[^>]*>/i, '').replace(/<\/body>[\s\S]*$/i, ''));
pages.push(`<html><head><title>joined</title></head><body>${bodies.join('\n')}</body></html>`);
const mib = pages.reduce((n, p) => n + Buffer.byteLength(p), 0) / 2 ** 20;

const STAGES = ['parse', 'basicClean', 'absolutize', 'mainContent', 'markdown'];
const ms: Record<string, Record<string, number>> = Object.fromEntries(sides.map((s) => [s.name, Object.fromEntries(STAGES.map((k) => [k, 0]))]));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const rounds = Number(args.rounds);
for (let r = 0; r <= rounds; r++) {
  for (const html of pages) {
    for (const side of r % 2 ? [...sides].reverse() : sides) {
      const m = side.impl;
      const t = ms[side.name];
      let a = cpu();
      const lap = (k: string) => {
        const b = cpu();
        if (r > 0) t[k] += b - a; // round 0 warms up
        a = b;
      };
      const doc = m.parseHtml(html);
      lap('parse');
      const body = m.bodyOf(doc);
      m.basicClean(body);
      lap('basicClean');
      m.absolutizeUrls(body, URL);
      lap('absolutize');
      const main = m.extractMainContent(body, { titles: ['joined'] });
      lap('mainContent');
      m.nodesToMarkdown(main ? main.nodes : body.children, { removeBase64Images: true });
      lap('markdown');
    }
  }
}
const per = (v: number) => (v / rounds / mib).toFixed(1).padStart(9);
const names = sides.map((s) => s.name);
process.stdout.write(`markdown step by stage, ms of CPU per MiB of input over ${rounds} rounds (after 1 warm-up), ${mib.toFixed(2)} MiB a round\n`);
process.stdout.write(['stage'.padEnd(13), ...names.map((n) => n.padStart(9)), ...(args.base ? ['new/old'.padStart(9)] : [])].join('') + '\n');
const sum: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
for (const k of STAGES) {
  for (const n of names) sum[n] += ms[n][k];
  process.stdout.write([k.padEnd(13), ...names.map((n) => per(ms[n][k])), ...(args.base ? [(ms.new[k] / ms.old[k]).toFixed(2).padStart(9)] : [])].join('') + '\n');
}
process.stdout.write(['total'.padEnd(13), ...names.map((n) => per(sum[n])), ...(args.base ? [(sum.new / sum.old).toFixed(2).padStart(9)] : [])].join('') + '\n');
process.stdout.write(['MiB/s'.padEnd(13), ...names.map((n) => (1000 / (sum[n] / rounds / mib)).toFixed(1).padStart(9))].join('') + '\n');
