/**
 * What the core reads off format declarations (core/scrape/formats.ts, core/pipeline/scrape-options.ts
 * `resolveFormats`), with stand-in plugins whose names the core never sees written down: the default
 * list, credits, captures, blob retention, caching, the unparsed fallback, the crawl's links format,
 * surfaces, exclusivity, `validate` and the 400 that names an unknown format.
 */
import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { defineFormat, type FormatPlugin } from '../../core/plugin.ts';
import { TrawlError } from '../../core/errors.ts';
import { defaultFormats, formatCaptures, formatCredits, formatsCacheable, holdsBlobs, pageLinksFormat, unparsedFallback } from '../../core/scrape/formats.ts';
import { resolveFormats, resolveScrapeOptions } from '../../core/pipeline/scrape-options.ts';

const produce = () => ({});
const plugins = new Map<string, FormatPlugin<any>>(
  [
    defineFormat({ name: 'alpha', default: true, unparsed: 'shows', produce }),
    defineFormat({ name: 'beta', credits: 3, role: 'page-links', produce }),
    defineFormat<{ big?: boolean }>({
      name: 'gamma', requires: ['screenshot'], blobs: true, cacheable: false, allowedIn: ['scrape', 'crawl'],
      options: Type.Object({ big: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      capture: (o) => ({ kind: 'screenshot', fullPage: o.big === true }), produce,
    }),
    defineFormat({ name: 'delta', exclusive: true, unparsed: 'fallback', produce }),
    defineFormat<{ n: number }>({
      name: 'epsilon', stringForm: false, options: Type.Object({ n: Type.Integer() }),
      validate: (o) => {
        if (o.n === 13) throw new TrawlError('BAD_REQUEST', 'epsilon: 13 is not allowed');
      }, produce,
    }),
  ].map((p) => [p.name, p]),
);

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TrawlError);
    expect((e as TrawlError).status).toBe(400);
    return (e as TrawlError).message;
  }
  throw new Error('expected a 400');
}

describe('declarations the core reads', () => {
  test('default list, credits, captures, blobs, caching, fallback, crawl links', () => {
    expect(defaultFormats(plugins)).toEqual(['alpha']);
    expect(resolveFormats(undefined, plugins)).toEqual([{ type: 'alpha' }]);
    expect(formatCredits([{ type: 'alpha' }, { type: 'beta' }], plugins)).toBe(3);
    expect(formatCaptures([{ type: 'alpha' }, { type: 'gamma', big: true }], plugins)).toEqual({ gamma: { kind: 'screenshot', fullPage: true } });
    expect(formatCaptures([{ type: 'alpha' }], plugins)).toBeUndefined();
    expect(holdsBlobs([{ type: 'gamma' }], plugins)).toBe(true);
    expect(holdsBlobs([{ type: 'alpha' }], plugins)).toBe(false);
    expect(formatsCacheable([{ type: 'alpha' }, { type: 'gamma' }], plugins)).toBe(false);
    expect(resolveScrapeOptions({ formats: ['gamma'] }, plugins).storeInCache).toBe(false);
    expect(resolveScrapeOptions({ formats: ['alpha'] }, plugins).storeInCache).toBe(true);
    expect(unparsedFallback([{ type: 'beta' }], plugins)?.name).toBe('delta');
    expect(unparsedFallback([{ type: 'alpha' }], plugins)).toBeUndefined();
    expect(pageLinksFormat(plugins)?.name).toBe('beta');
  });

  test('request checks: unknown, surface, exclusive, string form, options, validate', () => {
    expect(refusal(() => resolveFormats(['alpha', 'zeta'], plugins))).toBe('Unknown format "zeta". Supported formats: alpha, beta, gamma, delta, epsilon.');
    expect(refusal(() => resolveFormats([{ kind: 'alpha' }], plugins))).toContain('Supported formats: alpha');
    expect(refusal(() => resolveFormats(['gamma'], plugins, 'search'))).toBe('Format "gamma" is not available in search scrapeOptions.');
    expect(resolveFormats(['gamma'], plugins, 'crawl')).toEqual([{ type: 'gamma' }]);
    expect(refusal(() => resolveFormats(['delta', 'alpha'], plugins))).toBe('Format "delta" must be the only format of the request; remove "alpha".');
    expect(refusal(() => resolveFormats(['epsilon'], plugins))).toContain('must be an object');
    expect(refusal(() => resolveFormats([{ type: 'gamma', big: 'yes' }], plugins))).toContain('Invalid options for format "gamma"');
    expect(refusal(() => resolveFormats([{ type: 'epsilon', n: 13 }], plugins))).toBe('epsilon: 13 is not allowed');
    expect(refusal(() => resolveFormats(['alpha', 'alpha'], plugins))).toContain('more than once');
  });
});
