/**
 * The format contract (issue 16 scope 4), in the manner of unstorage's `testDriver`: `testFormat(plugin,
 * cases)` checks what every format owes the core (its declarations are well formed and agree with
 * each other) and then runs each case through the real pipeline step (`buildDocument`: parser,
 * format order, declared fields, warnings), with the engine's answer given by the case (page, bytes,
 * captures). Cases with `options` exercise the option model; `invalid` cases expect a 400.
 */
import { describe, expect, test } from 'bun:test';
import { Kind } from '@sinclair/typebox';
import { ALL_FORMAT_SURFACES, type EngineResponse, type LanguageModel, type FormatPlugin, type FormatSurface } from '../../../core/plugin.ts';
import type { PageVersionStore } from '../../../core/page-versions/types.ts';
import { BUILTIN_PLUGINS, Registry } from '../../../core/registry.ts';
import { resolveScrapeOptions } from '../../../core/pipeline/scrape-options.ts';
import { buildDocument, formatPlugins, runContext, type Document } from '../../../core/pipeline/scrape.ts';
import { TrawlError } from '../../../core/errors.ts';
import { contractConfig, contractContext } from './context.ts';

export interface FormatCase {
  name: string;
  /** Page HTML the engine answered (content type text/html). */
  page?: string;
  /** Raw bytes and content type instead of a page. */
  bytes?: Uint8Array;
  contentType?: string;
  /** Final URL (default http://127.0.0.1:9/page). */
  url?: string;
  /** The format's options (the object form's fields besides `type`). */
  options?: Record<string, unknown>;
  /** Other scrape options (formats excluded). */
  scrape?: Record<string, unknown>;
  /** Other formats requested with this one. */
  with?: string[];
  /** What the engine answered to this format's capture (browser formats). */
  capture?: unknown;
  /** Environment overrides of the config the case runs with (limits, binaries). */
  config?: Record<string, string>;
  /** A language model in the plugin context (test/model-formats/scripted-model.ts); none by default. */
  model?: LanguageModel;
  /** The target's status code (default 200). */
  statusCode?: number;
  /** The team's page versions in the plugin context (change tracking); none by default. */
  pageVersions?: PageVersionStore;
  /** Where the request comes in (default scrape). */
  surface?: FormatSurface;
  /** The request must be refused with 400; the message must match. */
  invalid?: RegExp;
  /** Checks on the document. */
  expect?: (doc: Document) => void | Promise<void>;
}

/** A registry of the built-in plugins plus `extra` formats (a plugin under test that is not registered). */
export function registryWith(extra: FormatPlugin<any>[] = []): Registry {
  const format = { ...BUILTIN_PLUGINS.format };
  for (const f of extra) format[f.name] = async () => ({ default: f });
  return new Registry({ ...BUILTIN_PLUGINS, format });
}

/**
 * Runs the format contract and the plugin's cases.
 * @param plugin the format plugin (registered or not: an unregistered one is added for the run)
 */
export function testFormat(plugin: FormatPlugin<any>, cases: FormatCase[]): void {
  const registry = Object.hasOwn(BUILTIN_PLUGINS.format, plugin.name) ? new Registry() : registryWith([plugin]);
  describe(`format "${plugin.name}"`, () => {
    test('declarations are well formed', async () => {
      expect(plugin.kind).toBe('format');
      expect(plugin.name).toMatch(/^[a-z][A-Za-z0-9]*$/);
      for (const f of plugin.fields ?? [plugin.name]) expect(f).not.toBe('metadata');
      if (typeof plugin.credits === 'number') expect(Number.isInteger(plugin.credits) && plugin.credits >= 0).toBe(true);
      else if (plugin.credits !== undefined) expect(typeof plugin.credits).toBe('function');
      for (const s of plugin.allowedIn ?? []) expect(ALL_FORMAT_SURFACES).toContain(s);
      if (plugin.options) expect(plugin.options[Kind]).toBe('Object');
      for (const n of plugin.needs ?? []) expect((await formatPlugins(registry)).has(n)).toBe(true);
      for (const n of plugin.withFormats ?? []) expect((await formatPlugins(registry)).has(n)).toBe(true);
      if (plugin.capture) {
        const capture = plugin.capture({});
        const feature = capture.kind === 'screenshot' ? 'screenshot' : 'js';
        expect(plugin.requires ?? []).toContain(feature); // the engine that answers must be chosen
        expect(plugin.pure).not.toBe(true); // a capture is an engine artefact: not for content threads
      }
      if (plugin.blobs) expect(plugin.pure).not.toBe(true); // content threads have no blob store
    });

    for (const c of cases) {
      test(c.name, async () => {
        const plugins = await formatPlugins(registry);
        const spec = c.options ? { type: plugin.name, ...c.options } : plugin.stringForm === false ? { type: plugin.name } : plugin.name;
        const raw = { ...(c.scrape ?? {}), formats: [spec, ...(c.with ?? [])] };
        if (c.invalid) {
          let error: unknown;
          try {
            resolveScrapeOptions(raw, plugins, c.surface);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(TrawlError);
          expect((error as TrawlError).status).toBe(400);
          expect((error as TrawlError).message).toMatch(c.invalid);
          return;
        }
        const options = resolveScrapeOptions(raw, plugins, c.surface);
        const url = c.url ?? 'http://127.0.0.1:9/page';
        const bytes = c.bytes ?? new TextEncoder().encode(c.page ?? '');
        const contentType = c.contentType ?? 'text/html';
        const response: EngineResponse = {
          url, statusCode: c.statusCode ?? 200, headers: { 'content-type': contentType }, contentType, body: bytes,
          text: contentType === 'text/html' ? (c.page ?? new TextDecoder().decode(bytes)) : undefined,
          engine: 'fetch', captures: c.capture !== undefined ? { [plugin.name]: c.capture } : undefined,
        };
        const req = { scrapeId: 'contract', url, sourceURL: url, options };
        const config = contractConfig(c.config);
        const ctx = contractContext(30_000, config);
        const run = runContext(req, { config, log: ctx.log, blobs: ctx.blobs });
        if (c.model) run.ctx.model = c.model;
        if (c.pageVersions) run.ctx.pageVersions = c.pageVersions;
        try {
          const doc = await buildDocument(response, req, { registry }, run);
          const shown = [...options.formats.map((f) => plugins.get(f.type)!), ...[...plugins.values()].filter((p) => p.unparsed === 'fallback')];
          const allowed = new Set(['metadata', 'warning', ...shown.flatMap((p) => p.fields ?? [p.name])]);
          for (const k of Object.keys(doc)) expect(allowed.has(k)).toBe(true);
          expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
          await c.expect?.(doc);
        } finally {
          run.end();
        }
      });
    }
  });
}
