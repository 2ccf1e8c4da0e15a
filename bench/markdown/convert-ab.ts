#!/usr/bin/env bun
/**
 * Before/after check of the markdown step on real pages: runs an older copy of the code (--base) and
 * this checkout side by side in one process over the WCXB development pages (1,497 gzipped pages in
 * `../shared/data/wcxb-dev`, CC-BY-4.0, never copied into the repo) and/or the pg-docs manual, through
 * the production path (parseHtml, cleanDom, nodesToMarkdown), with and without onlyMainContent, and
 * counts the pages whose markdown differs. With `--html` the cleaned HTML (`cleanHtml`, the `html`
 * format) is compared too. With `--out DIR` each differing output is written as `<id>.<mode>.old.md` /
 * `.new.md` for a `diff`. The CPU time (`process.cpuUsage`) of each side is summed as well (the sides
 * alternate page by page), as a rough speed check; step.ts and step-stages.ts measure speed properly.
 *
 *   bun bench/markdown/convert-ab.ts --base /tmp/md-old [--corpus wcxb|pg|both] [--every 1] [--html] [--out DIR]
 *
 * An old copy: `git archive <rev> | tar -x -C /tmp/md-old && ln -s $PWD/node_modules /tmp/md-old/`.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    corpus: { type: 'string', default: 'wcxb' },
    every: { type: 'string', default: '1' },
    html: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
if (!args.base) throw new Error('--base DIR (an older copy of the code) is required');

const WCXB = join(import.meta.dir, '../../../shared/data/wcxb-dev');
const PG = '/usr/share/doc/postgresql-doc-15/html';

interface Side {
  name: string;
  md: (html: string, url: string, onlyMainContent: boolean) => string;
  html: (html: string, url: string, onlyMainContent: boolean) => string;
  ms: number;
}

async function side(name: string, root: string): Promise<Side> {
  const { parseHtml } = await import(join(root, 'parsers/html/dom.ts'));
  const { cleanDom, cleanHtml } = await import(join(root, 'parsers/html/clean.ts'));
  const { nodesToMarkdown } = await import(join(root, 'formats/markdown/render.ts'));
  return {
    name,
    md: (html, url, onlyMainContent) => nodesToMarkdown(cleanDom(html, { url, onlyMainContent, tree: parseHtml(html) }), { removeBase64Images: true }),
    html: (html, url, onlyMainContent) => cleanHtml(html, { url, onlyMainContent }),
    ms: 0,
  };
}

/** The pages to compare: id, final URL, decoded HTML (read lazily, one at a time). */
function* pages(): Generator<{ id: string; url: string; html: () => string }> {
  if (args.corpus === 'wcxb' || args.corpus === 'both') {
    const ids = readdirSync(join(WCXB, 'ground-truth')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    for (const id of ids) {
      const { url } = JSON.parse(readFileSync(join(WCXB, 'ground-truth', `${id}.json`), 'utf8')) as { url: string };
      yield { id: `wcxb-${id}`, url, html: () => gunzipSync(readFileSync(join(WCXB, 'html', `${id}.html.gz`))).toString('utf8') };
    }
  }
  if (args.corpus === 'pg' || args.corpus === 'both') {
    for (const f of readdirSync(PG).filter((x) => /\.html?$/.test(x)).sort()) {
      yield { id: `pg-${f.replace(/\.html?$/, '')}`, url: `https://www.postgresql.org/docs/15/${f}`, html: () => readFileSync(join(PG, f), 'utf8') };
    }
  }
}

const sides = [await side('old', resolve(args.base)), await side('new', resolve(import.meta.dir, '../..'))];
if (args.out) mkdirSync(args.out, { recursive: true });
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const every = Number(args.every);
let n = 0;
let compared = 0;
const differing: string[] = [];
for (const page of pages()) {
  if (n++ % every) continue;
  const html = page.html();
  const kinds = args.html ? (['md', 'html'] as const) : (['md'] as const);
  for (const onlyMainContent of [true, false]) {
    for (const kind of kinds) {
      const out: string[] = [];
      for (const s of compared % 2 ? [...sides].reverse() : sides) {
        const t = cpu();
        let text: string;
        try {
          text = s[kind](html, page.url, onlyMainContent);
        } catch (e) {
          text = `THROWS: ${(e as Error).stack}`;
        }
        s.ms += cpu() - t;
        out[s === sides[0] ? 0 : 1] = text;
      }
      compared++;
      if (out[0] === out[1]) continue;
      const name = `${page.id}.${onlyMainContent ? 'main' : 'full'}.${kind}`;
      differing.push(name);
      if (args.out) {
        writeFileSync(join(args.out, `${name}.old`), out[0]);
        writeFileSync(join(args.out, `${name}.new`), out[1]);
      }
    }
  }
}
process.stdout.write(`${compared} outputs compared (${args.corpus}, both modes${args.html ? ', markdown and cleaned HTML' : ''}): ${differing.length} differ\n`);
for (const d of differing.slice(0, 40)) process.stdout.write(`  ${d}\n`);
process.stdout.write(`CPU ms: old ${sides[0].ms.toFixed(0)}, new ${sides[1].ms.toFixed(0)}, new/old ${(sides[1].ms / sides[0].ms).toFixed(3)}\n`);
