/**
 * The parser contract (issue 16 scope 4): `testParser(plugin, cases)` checks what every parser owes
 * the pipeline (lower-case accept lists, magic tests that never throw on short input, garbage input
 * answered by a TrawlError that names the plugin, never a bare Error) and runs the plugin's cases (bytes in, parsed document
 * checked).
 */
import { describe, expect, test } from 'bun:test';
import type { ParsedDocument, ParserOptions, ParserPlugin } from '../../../core/plugin.ts';
import { TrawlError } from '../../../core/errors.ts';
import { contractContext } from './context.ts';
import { pluginProblems } from '../../../core/plugin-checks.ts';

export interface ParserCase {
  name: string;
  bytes: Uint8Array | (() => Uint8Array | Promise<Uint8Array>);
  contentType: string;
  url?: string;
  filename?: string;
  options?: Omit<ParserOptions, 'type'>;
  /** The magic test must say this (when the plugin has one). */
  magic?: boolean;
  expect: (doc: ParsedDocument) => void | Promise<void>;
}

export function testParser(plugin: ParserPlugin, cases: ParserCase[], extra: { garbage?: boolean } = {}): void {
  describe(`parser "${plugin.name}"`, () => {
    test('accept lists are lower case; magic survives short input', () => {
      expect(plugin.kind).toBe('parser');
      // What core checks of every parser, external ones at startup included (core/plugin-checks.ts).
      expect(pluginProblems(plugin, { formats: new Set() })).toEqual([]);
      expect(plugin.accepts.mime.length + plugin.accepts.ext.length).toBeGreaterThan(0);
      for (const m of plugin.accepts.mime) expect(m).toBe(m.toLowerCase());
      for (const e of plugin.accepts.ext) expect(e).toMatch(/^\.[a-z0-9]+$/);
      for (const bytes of [new Uint8Array(0), new Uint8Array([0x25]), new TextEncoder().encode('<html>')]) {
        expect(() => plugin.accepts.magic?.(bytes)).not.toThrow();
      }
    });

    if (extra.garbage !== false) {
      test('garbage input: a document or a TrawlError naming the plugin', async () => {
        const garbage = new Uint8Array(256).map((_, i) => (i * 73 + 11) % 256);
        try {
          const doc = await plugin.parse({ bytes: garbage, contentType: plugin.accepts.mime[0] ?? 'application/octet-stream', url: 'http://127.0.0.1:9/x' }, { type: plugin.name }, contractContext(20_000));
          expect(typeof doc.metadata).toBe('object');
        } catch (e) {
          expect(e).toBeInstanceOf(TrawlError);
          expect((e as TrawlError).message).toContain(`[${plugin.name}]`); // errors name their plugin
        }
      }, 60_000);
    }

    for (const c of cases) {
      test(c.name, async () => {
        const bytes = typeof c.bytes === 'function' ? await c.bytes() : c.bytes;
        if (c.magic !== undefined && plugin.accepts.magic) expect(plugin.accepts.magic(bytes)).toBe(c.magic);
        const text = c.contentType.startsWith('text/') ? new TextDecoder().decode(bytes) : undefined;
        const doc = await plugin.parse(
          { bytes, contentType: c.contentType, url: c.url ?? 'http://127.0.0.1:9/file', filename: c.filename, text },
          { type: plugin.name, ...(c.options ?? {}) },
          contractContext(60_000),
        );
        expect(typeof doc.metadata).toBe('object');
        expect(doc.html !== undefined || doc.markdown !== undefined).toBe(true);
        await c.expect(doc);
      }, 120_000);
    }
  });
}
