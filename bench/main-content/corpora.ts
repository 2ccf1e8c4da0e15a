/**
 * Pages the main-content benchmark runs on, and their gold text. Gold comes from a selector naming the
 * page's unambiguous content region (Debian-packaged documentation: PostgreSQL, Python, Django, Flask,
 * Node.js, Debian Reference) or from bench/main-content/fixtures-gold.json for the hand-written
 * fixture pages in test/fixtures/pages. The selectors are used here only, never by the extractor.
 * A corpus whose package is not installed is skipped.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { selectAll, selectOne } from 'css-select';
import { isTag, isText, parseHtml, type AnyNode, type Element, detach, INLINE_TAGS } from '../../parsers/html/dom.ts';

export interface Page {
  corpus: string;
  file: string;
  url: string;
  /** Selector of the gold region (first match). */
  gold: string;
  /** Selectors removed from the gold region. */
  exclude?: string[];
}

interface Corpus {
  name: string;
  dir: string;
  /** Relative sub-directories (or '.') to list html files from. */
  subdirs: string[];
  gold: string;
  exclude?: string[];
  baseUrl: string;
  /** Skip files matching (indexes, search pages). */
  skip?: RegExp;
}

const CORPORA: Corpus[] = [
  { name: 'postgresql', dir: '/usr/share/doc/postgresql-doc-15/html', subdirs: ['.'], gold: 'body', exclude: ['.navheader', '.navfooter'], baseUrl: 'https://www.postgresql.org/docs/15/', skip: /^(index|bookindex|release-.*)\.html$/ },
  { name: 'python', dir: '/usr/share/doc/python3-doc/html', subdirs: ['library', 'tutorial', 'howto', 'reference'], gold: 'div.body', baseUrl: 'https://docs.python.org/3/', skip: /^index\.html$/ },
  { name: 'django', dir: '/usr/share/doc/python-django-doc/html', subdirs: ['topics', 'howto', 'ref', 'intro'], gold: '#yui-main .yui-g', baseUrl: 'https://docs.djangoproject.com/en/3.2/', skip: /^index\.html$/ },
  { name: 'flask', dir: '/usr/share/doc/python-flask-doc/html', subdirs: ['.', 'tutorial', 'patterns', 'deploying'], gold: 'div.body', baseUrl: 'https://flask.palletsprojects.com/en/2.2.x/', skip: /^(index|genindex|search|py-modindex)\.html$/ },
  { name: 'nodejs', dir: '/usr/share/doc/nodejs/api', subdirs: ['.'], gold: '#apicontent', baseUrl: 'https://nodejs.org/docs/latest-v18.x/api/', skip: /^(all|index)\.html$/ },
  { name: 'debian-reference', dir: '/usr/share/debian-reference', subdirs: ['.'], gold: 'div.chapter, div.appendix, div.preface', exclude: ['div.toc'], baseUrl: 'https://www.debian.org/doc/manuals/debian-reference/', skip: /^index/ },
];

function htmlFiles(dir: string, maxBytes: number): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.html?$/.test(f))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).size <= maxBytes)
    .sort();
}

/** Installed pages, at most `perCorpus` per corpus, picked evenly across the sorted file list. */
export function debianPages(perCorpus: number, maxBytes = 1_500_000): Page[] {
  const out: Page[] = [];
  for (const c of CORPORA) {
    const files = c.subdirs.flatMap((s) => htmlFiles(join(c.dir, s), maxBytes)).filter((f) => !c.skip?.test(f.split('/').pop()!));
    if (!files.length) continue;
    const step = Math.max(1, files.length / perCorpus);
    for (let i = 0; i < files.length && out.filter((p) => p.corpus === c.name).length < perCorpus; i += step) {
      const file = files[Math.floor(i)];
      out.push({ corpus: c.name, file, url: c.baseUrl + file.slice(c.dir.length + 1), gold: c.gold, exclude: c.exclude });
    }
  }
  return out;
}

/** Fixture pages with their gold selectors (bench/main-content/fixtures-gold.json). */
export async function fixturePages(root: string): Promise<Page[]> {
  const manifest = join(root, 'bench/main-content/fixtures-gold.json');
  if (!existsSync(manifest)) return [];
  const entries = (await Bun.file(manifest).json()) as { file: string; gold: string; exclude?: string[] }[];
  return entries.map((e) => ({
    corpus: 'fixtures',
    file: join(root, 'test/fixtures/pages', e.file),
    url: `https://news.example.com/${e.file.replace(/\.html$/, '')}`,
    gold: e.gold,
    exclude: e.exclude,
  }));
}

/** Plain text of nodes with spaces at block boundaries. */
export function blockText(nodes: AnyNode[]): string {
  const parts: string[] = [];
  const stack: (AnyNode | string)[] = [...nodes].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') parts.push(n);
    else if (isText(n)) parts.push(n.data);
    else if (isTag(n)) {
      if (n.name === 'script' || n.name === 'style' || n.name === 'noscript' || n.name === 'template') continue;
      const block = !INLINE_TAGS.has(n.name) || n.name === 'br';
      if (block) parts.push(' ');
      if (block) stack.push(' ');
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/**
 * Gold text of a page: the outermost elements matching its gold selector (document order; Debian
 * corpora use the first match only) minus excluded parts.
 */
export function goldText(html: string, page: Page, all = page.corpus === 'fixtures'): string {
  const doc = parseHtml(html);
  let regions = all ? selectAll<AnyNode, Element>(page.gold, doc) : [selectOne<AnyNode, Element>(page.gold, doc)].filter((r): r is Element => !!r);
  regions = regions.filter((r) => !regions.some((o) => o !== r && isAncestor(o, r)));
  if (!regions.length) return '';
  for (const sel of page.exclude ?? []) {
    for (const el of selectAll<AnyNode, Element>(sel, doc)) if (regions.some((r) => r === el || isAncestor(r, el))) detach(el);
  }
  return blockText(regions);
}

function isAncestor(a: Element, b: Element): boolean {
  for (let p = b.parent; p; p = p.parent) if (p === a) return true;
  return false;
}
