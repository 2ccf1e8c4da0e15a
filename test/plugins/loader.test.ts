/**
 * The external plugin loader (core/external-plugins.ts) in-process: plugin files and folders from
 * TRAWL_PLUGINS_DIR outside the checkout import `trawl/plugin`, pass the same checks as built-in
 * plugins and are registered after them with their source; every kind of broken plugin stops the load
 * with a message naming its file and what failed.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig, ConfigError } from '../../core/config.ts';
import { pluginFiles, registryFor } from '../../core/external-plugins.ts';
import { TrawlError } from '../../core/errors.ts';

const EXAMPLES = resolve(import.meta.dir, '../../examples/plugins');
const work = mkdtempSync(join(tmpdir(), 'trawl-plugins-'));
let n = 0;

afterAll(() => rmSync(work, { recursive: true, force: true }));

function config(paths: string) {
  return loadConfig({ TRAWL_PLUGINS_DIR: paths, TRAWL_DATA_DIR: join(work, 'data') }, work);
}

/** Writes one plugin file in a fresh folder (module caching keys on the path) and returns the file. */
function plugin(source: string, name = 'plugin.ts'): string {
  const dir = join(work, `p${++n}`);
  mkdirSync(dir);
  writeFileSync(join(dir, name), source);
  return join(dir, name);
}

async function refusal(paths: string): Promise<string> {
  try {
    await registryFor(config(paths));
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('the plugin was accepted');
}

describe('loading', () => {
  test('the example folder: a format and a parser, registered after the built-in ones with their source', async () => {
    const registry = await registryFor(config(EXAMPLES));
    expect(registry.names('format').at(-1)).toBe('wordCount');
    expect(registry.names('parser').at(-1)).toBe('icalendar');
    expect(registry.source('format', 'wordCount')).toBe(join(EXAMPLES, 'word-count.ts'));
    expect(registry.source('parser', 'icalendar')).toBe(join(EXAMPLES, 'icalendar.ts'));
    expect(registry.source('format', 'markdown')).toBe('built-in');
  });

  test('a plugin outside the checkout imports trawl/plugin and shares the core TrawlError class', async () => {
    const file = plugin(`import { defineParser, TrawlError } from 'trawl/plugin';
      export default defineParser({ name: 'ext-check', accepts: { mime: ['text/x-ext-check'], ext: [] },
        async parse() { throw new TrawlError('SCRAPE_UNSUPPORTED_FILE_ERROR', '[ext-check] never reads anything'); } });`);
    const registry = await registryFor(config(file));
    const parser = await registry.get('parser', 'ext-check');
    const error = await parser.parse({ bytes: new Uint8Array(), contentType: 'text/x-ext-check', url: 'http://127.0.0.1:9/' }, { type: 'ext-check' }, {} as never).catch((e) => e);
    expect(error).toBeInstanceOf(TrawlError);
  });

  test('a format with options: its schema made with the Type of trawl/plugin is checked and used', async () => {
    const file = plugin(`import { defineFormat, Type } from 'trawl/plugin';
      export default defineFormat({ name: 'excerpt', needs: ['markdown'], pure: true,
        options: Type.Object({ chars: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }),
        produce: (input, options) => ({ excerpt: String(input.outputs.markdown).slice(0, options.chars ?? 10) }) });`);
    const registry = await registryFor(config(file));
    const { resolveScrapeOptions } = await import('../../core/pipeline/scrape-options.ts');
    const { formatPlugins } = await import('../../core/pipeline/scrape.ts');
    const plugins = await formatPlugins(registry);
    expect(resolveScrapeOptions({ formats: [{ type: 'excerpt', chars: 5 }] }, plugins).formats).toContainEqual({ type: 'excerpt', chars: 5 });
    expect(() => resolveScrapeOptions({ formats: [{ type: 'excerpt', chars: 0 }] }, plugins)).toThrow(/chars/);
  });

  test('a folder lists scripts and subfolders with an index; tests, type files and _helpers are skipped', () => {
    const dir = join(work, 'folder');
    mkdirSync(join(dir, 'nested'), { recursive: true });
    mkdirSync(join(dir, 'no-index'));
    for (const f of ['a.ts', 'b.js', 'c.d.ts', 'd.test.ts', '_helper.ts', 'README.md', 'nested/index.ts', 'no-index/x.ts']) writeFileSync(join(dir, f), '');
    expect(pluginFiles([dir]).map((f) => f.slice(dir.length + 1))).toEqual(['a.ts', 'b.js', 'nested/index.ts']);
  });

  test('comma-separated paths, relative to the working directory', () => {
    expect(config('a, b/c').pluginPaths).toEqual([join(work, 'a'), join(work, 'b/c')]);
  });
});

describe('a broken plugin stops the load, naming its file and what failed', () => {
  const cases: [string, string, RegExp][] = [
    ['bad declarations', `import { defineFormat } from 'trawl/plugin'; export default defineFormat({ name: 'badCredits', credits: -1, needs: ['nothing'], produce: () => ({}) });`, /format "badCredits"\) failed its checks:\n {2}- credits must be a whole number of 0 or more\n {2}- needs: no format named "nothing" is registered/],
    ['no default export', `export const x = 1;`, /the default export is undefined, not a plugin object/],
    ['an unknown kind', `export default { kind: 'widget', name: 'w' };`, /kind "widget" is not one of format, parser/],
    ['a syntax error', `export default {{;`, /cannot be loaded: /],
    ['an import that fails', `import 'trawl/does-not-exist'; export default {};`, /cannot be loaded: .*'trawl'/],
    ['a built-in name', `import { defineFormat } from 'trawl/plugin'; export default defineFormat({ name: 'markdown', produce: () => ({ markdown: '' }) });`, /a built-in format is named "markdown" already/],
    ['a format that throws on a page', `import { defineFormat } from 'trawl/plugin'; export default defineFormat({ name: 'broken', produce() { throw new Error('boom'); } });`, /format "broken"\) failed its checks:\n {2}- produce failed on a small HTML page: boom/],
    ['a format that fills none of its fields', `import { defineFormat } from 'trawl/plugin'; export default defineFormat({ name: 'empty', produce: () => ({ other: 1 }) });`, /returned none of its fields \(empty\)/],
    ['a parser that throws a plain Error', `import { defineParser } from 'trawl/plugin'; export default defineParser({ name: 'plain', accepts: { mime: ['text/x-plain-err'], ext: ['.pe'] }, async parse() { throw new Error('nope'); } });`, /parse threw a plain Error on garbage bytes/],
    ['an upper-case extension', `import { defineParser } from 'trawl/plugin'; export default defineParser({ name: 'upper', accepts: { mime: ['text/x-up'], ext: ['.ICS'] }, async parse() { return { markdown: '', metadata: {} }; } });`, /accepts.ext: ".ICS" must be a lower-case extension/],
  ];
  for (const [name, source, message] of cases) {
    test(name, async () => {
      const file = plugin(source);
      const text = await refusal(file);
      expect(text).toStartWith(`plugin ${file}`);
      expect(text).toMatch(message);
    });
  }

  test('a path that does not exist', async () => {
    expect(await refusal(join(work, 'missing'))).toBe(`TRAWL_PLUGINS_DIR: ${join(work, 'missing')} does not exist`);
  });

  test('two plugins of one name', async () => {
    const a = plugin(`export default { kind: 'support', name: 'twice', diagnose: () => undefined };`);
    const b = plugin(`export default { kind: 'support', name: 'twice', diagnose: () => undefined };`);
    expect(await refusal(`${a},${b}`)).toContain(`the support "twice" is defined by ${a} already`);
  });
});
