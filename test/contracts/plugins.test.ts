/**
 * Contract suite for every registered plugin: each kind's shape (name equal to its registry key,
 * declared features, accepted types, options schemas), and for formats and parsers the behaviour
 * every plugin of the kind owes the pipeline (plain-object output, no throw on empty input, magic
 * tests that never throw on short input). A new plugin gets these checks by its registry line alone.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { Registry, BUILTIN_PLUGINS } from '../../core/registry.ts';
import type { FormatInput, ParserPlugin, PluginContext } from '../../core/plugin.ts';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { resolveScrapeOptions } from '../../core/pipeline/scrape-options.ts';
import { createFormatInput, formatPlugins } from '../../core/pipeline/scrape.ts';
import { pluginProblems } from '../../core/plugin-checks.ts';

const registry = new Registry();
const ENGINE_FEATURES = ['http', 'js', 'actions', 'screenshot', 'pdf-print', 'mobile', 'wait', 'location', 'profile'];

function ctx(): PluginContext {
  return {
    config: loadConfig({ TRAWL_DATA_DIR: '/tmp/trawl-contract' }),
    log: silentLogger,
    signal: new AbortController().signal,
    deadline: Date.now() + 30_000,
    blobs: { put: async () => 'k', get: async () => undefined, url: (k) => `http://127.0.0.1/v2/blobs/${k}` },
  };
}

describe('every registered plugin', () => {
  for (const kind of Object.keys(BUILTIN_PLUGINS) as (keyof typeof BUILTIN_PLUGINS)[]) {
    for (const name of registry.names(kind)) {
      test(`${kind} "${name}" loads and is named as registered`, async () => {
        const plugin = await registry.get(kind, name);
        expect(plugin.kind).toBe(kind);
        expect(plugin.name).toBe(name);
        // The checks external plugins pass at startup (core/plugin-checks.ts) hold for built-in ones.
        expect(pluginProblems(plugin, { formats: new Set(registry.names('format')) })).toEqual([]);
      });
    }
  }
});

describe('engines', () => {
  test('declare known features and a cost; exactly one plain-HTTP engine is cheapest', async () => {
    const engines = await registry.all('engine');
    for (const e of engines) {
      expect(e.features.length).toBeGreaterThan(0);
      for (const f of e.features) expect(ENGINE_FEATURES).toContain(f);
      expect(e.cost).toBeGreaterThan(0);
      expect(typeof e.fetch).toBe('function');
    }
    const cheapest = [...engines].sort((a, b) => a.cost - b.cost)[0];
    expect(cheapest.features).toContain('http');
  });
});

describe('parsers', () => {
  test('accept lists are lower case and magic tests survive short input', async () => {
    const parsers: readonly ParserPlugin[] = await registry.all('parser');
    for (const p of parsers) {
      for (const m of p.accepts.mime) expect(m).toBe(m.toLowerCase());
      for (const e of p.accepts.ext) expect(e).toMatch(/^\.[a-z0-9]+$/);
      for (const bytes of [new Uint8Array(0), new Uint8Array([0x25]), new TextEncoder().encode('<html>')]) {
        expect(() => p.accepts.magic?.(bytes)).not.toThrow();
      }
    }
  });

  test('the html parser returns html and metadata for an empty page', async () => {
    const html = await registry.get('parser', 'html');
    const out = await html.parse({ bytes: new Uint8Array(0), contentType: 'text/html', url: 'http://127.0.0.1/', text: '' }, { type: 'html' }, ctx());
    expect(typeof out.html).toBe('string');
    expect(typeof out.metadata).toBe('object');
  });
});

describe('formats', () => {
  test('produce plain objects keyed by their own name on a simple page', async () => {
    const plugins = await formatPlugins(registry);
    const page = '<html><head><title>T</title></head><body><main><h1>Head</h1><p>Body text with <a href="/x">a link</a>.</p></main></body></html>';
    const htmlParser = await registry.get('parser', 'html');
    const simple = [...plugins.values()].filter((f) => !f.requires?.length && !f.options);
    expect(simple.map((f) => f.name)).toEqual(expect.arrayContaining(['markdown', 'html', 'rawHtml', 'links']));
    for (const f of simple) {
      const options = resolveScrapeOptions({ formats: [f.name] }, plugins);
      const response = { url: 'http://127.0.0.1/p', statusCode: 200, headers: {}, contentType: 'text/html', body: new Uint8Array(), text: page, engine: 'fetch' };
      // A fresh parse per format: the cleaner takes the parsed tree over.
      const parsed = await htmlParser.parse({ bytes: new TextEncoder().encode(page), contentType: 'text/html', url: 'http://127.0.0.1/p', text: page }, { type: 'html' }, ctx());
      const input: FormatInput = createFormatInput(response, { sourceURL: 'http://127.0.0.1/p', options }, parsed);
      const out = await f.produce(input, { type: f.name }, ctx());
      expect(Object.keys(out)).toContain(f.name);
      expect(JSON.parse(JSON.stringify(out))).toEqual(out);
    }
  });
});

describe('every registered plugin has its contract cases', () => {
  const folders = { format: 'formats', parser: 'parsers', engine: 'engines', 'search-provider': 'search-providers', support: 'support' } as const;
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  for (const [kind, folder] of Object.entries(folders) as [keyof typeof folders, string][]) {
    test(`${kind}: test/contracts/${folder}/<name>.test.ts runs the ${kind} suite`, () => {
      const missing = registry.names(kind).filter((name) => !existsSync(`${import.meta.dir}/${folder}/${kebab(name)}.test.ts`));
      expect(missing).toEqual([]);
    });
  }
});
