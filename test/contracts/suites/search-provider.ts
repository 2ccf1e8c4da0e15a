/**
 * The search provider contract (issue 16 scope 4): `testSearchProvider(plugin, setup, cases)` checks
 * the declarations (sources among web/news/images; not configured from an empty config unless the
 * provider needs nothing) and, against the provider's fake or real backend on 127.0.0.1 given by
 * `setup`, what every provider owes core/search: hits with absolute URLs and string titles and
 * descriptions, at most `limit` of them; then the plugin's cases.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { SearchContext, SearchHit, SearchProviderPlugin, SearchQuery } from '../../../core/plugin.ts';
import type { ResolvedConfig } from '../../../core/config.ts';
import type { Queryable } from '../../../core/db/client.ts';
import { silentLogger } from '../../../core/log.ts';
import { contractConfig } from './context.ts';

/** What a provider's test environment gives: the config that points at its backend, and a database. */
export interface ProviderEnv {
  config: ResolvedConfig;
  db?: Queryable;
  /** A query word the backend has results for. */
  word: string;
  /** Teams whose indexed pages the search may read (the local provider). */
  indexTeams?: readonly string[];
  stop(): Promise<void> | void;
}

export interface SearchProviderCase {
  name: string;
  query: Partial<SearchQuery>;
  expect: (hits: SearchHit[]) => void | Promise<void>;
}

export function testSearchProvider(plugin: SearchProviderPlugin, setup: () => Promise<ProviderEnv>, cases: SearchProviderCase[] = [], extra: { alwaysConfigured?: boolean } = {}): void {
  describe(`search provider "${plugin.name}"`, () => {
    let env: ProviderEnv;
    beforeAll(async () => {
      env = await setup();
    }, 60_000);
    afterAll(async () => {
      await env?.stop();
    });
    const ctx = (): SearchContext => ({
      config: env.config, log: silentLogger, signal: AbortSignal.timeout(15_000), deadline: Date.now() + 15_000, blobs: {} as never, db: env.db ?? { query: async () => [] }, indexTeams: env.indexTeams,
    });
    const query = (over: Partial<SearchQuery> = {}): SearchQuery => ({ query: env.word, source: 'web', limit: 5, timeoutMs: 15_000, ...over });

    test('declarations: sources and configuration', () => {
      expect(plugin.kind).toBe('search-provider');
      for (const s of plugin.sources ?? []) expect(['web', 'news', 'images']).toContain(s);
      expect(plugin.configured(contractConfig())).toBe(extra.alwaysConfigured === true);
      expect(plugin.configured(env.config)).toBe(true);
    });

    test('web hits: absolute URLs, string titles and descriptions, at most limit', async () => {
      const hits = await plugin.search(query({ limit: 2 }), ctx());
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.length).toBeLessThanOrEqual(2);
      for (const h of hits) {
        expect(() => new URL(h.url)).not.toThrow();
        expect(typeof h.title).toBe('string');
        expect(typeof h.description).toBe('string');
      }
    }, 30_000);

    for (const c of cases) test(c.name, async () => c.expect(await plugin.search(query(c.query), ctx())), 30_000);
  });
}
