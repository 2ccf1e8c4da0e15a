/**
 * Scrape-option rules of the model features (issue 18 scope 2): JSON mode raises a default timeout
 * to at least 60 s (declared by the format: `minTimeoutMs`), v1 `json`/`extract` keep it, and
 * `onlyCleanContent` is refused with zero data retention.
 */
import { describe, expect, test } from 'bun:test';
import { Registry } from '../../core/registry.ts';
import { formatPlugins } from '../../core/pipeline/scrape.ts';
import { resolveScrapeOptions } from '../../core/pipeline/scrape-options.ts';
import { v1ScrapeOptions } from '../../core/http/v1-translate.ts';
import { TrawlError } from '../../core/errors.ts';
import { resolveParseOptions } from '../../core/http/models/parse.ts';

const plugins = await formatPlugins(new Registry());

describe('model feature options', () => {
  test('a json format raises the default timeout to 60 s; a given timeout is kept', () => {
    const json = { type: 'json', prompt: 'the price' };
    expect(resolveScrapeOptions({ formats: [json] }, plugins).timeout).toBeGreaterThanOrEqual(60_000);
    expect(resolveScrapeOptions({ formats: [json], timeout: 5000 }, plugins).timeout).toBe(5000);
  });

  test('/v2/parse: json raises its 30 s default to 60 s', () => {
    expect(resolveParseOptions(JSON.stringify({ formats: [{ type: 'json', prompt: 'p' }] }), plugins).timeout).toBe(60_000);
    expect(resolveParseOptions(JSON.stringify({ formats: ['markdown'] }), plugins).timeout).toBe(30_000);
  });

  test('v1: json and extract keep the v2 default timeout, other formats get 30 s', () => {
    const v1 = v1ScrapeOptions({ formats: ['extract'], extract: { prompt: 'p', schema: { type: 'object' } } });
    expect(v1.formats).toEqual([{ type: 'json', prompt: 'p', schema: { type: 'object' } }]);
    expect(resolveScrapeOptions(v1, plugins, 'v1').timeout).toBe(60_000);
    expect(v1ScrapeOptions({ formats: ['json'], jsonOptions: { systemPrompt: 's', prompt: 'p' } }).formats).toEqual([{ type: 'json', prompt: 's\n\np' }]);
    expect(v1ScrapeOptions({ formats: ['markdown'] }).timeout).toBe(30_000);
  });

  test('onlyCleanContent with zeroDataRetention (or lockdown) is a 400 naming both', () => {
    for (const extra of [{ zeroDataRetention: true }, { lockdown: true }]) {
      let error: unknown;
      try {
        resolveScrapeOptions({ onlyCleanContent: true, ...extra }, plugins);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TrawlError);
      expect((error as TrawlError).status).toBe(400);
      expect((error as TrawlError).message).toMatch(/onlyCleanContent cannot be combined with (zeroDataRetention|lockdown)/);
    }
  });
});
