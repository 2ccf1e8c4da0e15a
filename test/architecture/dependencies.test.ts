/**
 * The layout's rules, enforced (issue 16 scope 3): dependency-cruiser checks the rules of
 * .dependency-cruiser.cjs over every source folder (its CLI refuses Node 20, so the API runs here,
 * under Bun), and a scan checks that no file in core names a registered format: the format plugins
 * declare what the core needs (core/plugin.ts `FormatPlugin`), and core/registry.ts is the one line
 * per format. A few literals in core mean something else that shares a format's name (the `html`
 * parser, the `screenshot` action, the `images` search source); they are listed below with why.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { BUILTIN_PLUGINS } from '../../core/registry.ts';

const ROOT = join(import.meta.dir, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(ROOT, '.dependency-cruiser.cjs'));

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  test('no cycles, no HTTP below HTTP, formats ⟂ parsers, plugins never import modes', async () => {
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      const result = await cruise(['core', 'formats', 'parsers', 'plugins', 'bin'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } });
      const out = result.output as { summary: { violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[] }; modules: unknown[] };
      const violations = out.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' > ')})` : ''}`);
      expect(out.modules.length).toBeGreaterThan(200); // the cruise really resolved the sources
      expect(violations).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  }, 120_000);
});

/** Literals in core that share a format's name but mean something else: `file -> names`. */
const NOT_FORMATS: Record<string, string[]> = {
  'core/pipeline/scrape.ts': ['html'], // the html parser and content types
  'core/search/index-document.ts': ['html'], // a file type of the search index
  'core/blobs.ts': ['html', 'json'], // file extensions of blobs
  'core/db/schema/search.ts': ['html'], // the search index's file type column
  'core/plugin.ts': ['screenshot', 'images', 'json'], // the engine feature; the search source; the model output kind
  'core/scrape/actions.ts': ['screenshot'], // the screenshot action
  'core/pipeline/select.ts': ['screenshot'], // the screenshot action needs the engine feature
  'core/http/guard.ts': ['screenshot'], // the screenshot action on a format-restricted key (interface.md Authentication 4)
  'core/privacy/detectors/email.ts': ['html', 'json'], // a file extension that is no e-mail TLD
  'core/auth/document-filter.ts': ['screenshot'], // the same rule for stored screenshot actions read back (issue 15 item 11)
  'core/interact/sandbox.ts': ['markdown', 'screenshot'], // methods of the interact page API
  'core/interact/page-api.ts': ['markdown', 'screenshot'], // methods of the interact page API
  'core/http/models/search.ts': ['images'], // the search source
  'core/search/request.ts': ['images', 'query'], // the search source; the request field
  'core/mcp/schemas.ts': ['query'], // the firecrawl_search tool's argument
  'core/search/run.ts': ['images'],
  'core/search/results.ts': ['images'],
  'core/search/local-index.ts': ['images'],
  'core/http/models/parse.ts': ['markdown'], // an example in an error message
  'core/http/v1-translate.ts': ['screenshot', 'json', 'changeTracking'], // v1 wire syntax `screenshot@fullPage`, `json` + `jsonOptions`, `changeTracking` + `changeTrackingOptions` (compat.md §19)
  'core/http/routes/v1.ts': ['json'], // a content type
  'core/monitor/targets.ts': ['changeTracking', 'markdown'], // monitors ask every page for change tracking, which needs markdown (issue 20 scope 2)
  'core/llm/structured.ts': ['json'], // the model output kind (ModelOutputFormat)
  'core/llm/service.ts': ['json'], // the LanguageModel method json()
  'core/http/routes/search-research.ts': ['query'], // a URL query parameter
  'core/search/papers/external.ts': ['query'], // a URL query parameter
  'core/db/pglite-worker.ts': ['query'], // database client methods
  'core/db/pglite-remote.ts': ['query'],
  'core/db/client.ts': ['query'],
  'core/search/index-feed.ts': ['markdown', 'html', 'rawHtml'], // Document text fields the search index reads
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** Source text without comments (docs may name formats; code may not). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

describe('core names no format', () => {
  test('no string literal in core equals a registered format name (core/registry.ts aside)', () => {
    const names = Object.keys(BUILTIN_PLUGINS.format);
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'core'))) {
      if (file === 'core/registry.ts') continue;
      const text = withoutComments(readFileSync(join(ROOT, file), 'utf8'));
      for (const name of names) {
        if (NOT_FORMATS[file]?.includes(name)) continue;
        if (new RegExp(`(['"\`])${name}\\1`).test(text)) found.push(`${file}: '${name}'`);
      }
    }
    expect(found).toEqual([]);
  });
});
