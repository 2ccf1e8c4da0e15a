/**
 * The engine contract (issue 16 scope 4): `testEngine(plugin, cases)` serves a fixture site on
 * 127.0.0.1 and checks what every engine owes the pipeline: final URL, status, lower-case headers,
 * content type without parameters, body bytes and decoded text of a page; a 404 answered (not
 * thrown); a redirect followed; a private target refused unless allowed. Cases exercise the features
 * the engine declares (captures, actions, waitFor) against their own fixture routes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { EngineFeature, EnginePlugin, EngineRequest, EngineResponse } from '../../../core/plugin.ts';
import { TrawlError } from '../../../core/errors.ts';
import { serveFixtures, type FixtureRoute, type FixtureSite } from '../../helpers/fixture-site.ts';
import { testScrapeOptions } from '../../helpers/scrape-options.ts';
import { contractContext } from './context.ts';
import { GUARDED, UNGUARDED } from '../../../core/net/target-policy.ts';

export interface EngineCase {
  name: string;
  /** Features of the engine this case needs (skipped for an engine without them). */
  needs?: EngineFeature[];
  path: string;
  /** Overrides of the engine request (options, captures ...). */
  request?: (site: FixtureSite) => Partial<EngineRequest>;
  expect: (res: EngineResponse, site: FixtureSite) => void | Promise<void>;
}

const PAGE = '<html><head><title>Contract</title></head><body><h1>Héllo</h1><p id="p">text</p></body></html>';

const BASE_ROUTES: Record<string, FixtureRoute> = {
  '/page': PAGE,
  '/moved': () => new Response(null, { status: 302, headers: { location: '/page' } }),
  '/data.json': { body: '{"a":1}', headers: { 'content-type': 'application/json; charset=utf-8' } },
};

/**
 * @param routes extra fixture routes the cases use
 */
export function testEngine(plugin: EnginePlugin, cases: EngineCase[], routes: Record<string, FixtureRoute> = {}): void {
  describe(`engine "${plugin.name}"`, () => {
    let site: FixtureSite;
    beforeAll(() => {
      site = serveFixtures({ ...BASE_ROUTES, ...routes });
    });
    afterAll(async () => {
      site.stop();
      await plugin.close?.();
    });

    const request = (path: string, over: Partial<EngineRequest> = {}): EngineRequest => {
      const options = testScrapeOptions({ blockAds: false, ...(over.options ?? {}) });
      return { url: site.url(path), headers: {}, timeoutMs: 30_000, targets: UNGUARDED, ...over, options };
    };

    test('a page: final URL, status, lower-case headers, bare content type, bytes and text', async () => {
      const res = await plugin.fetch(request('/page'), contractContext());
      expect(res.url).toBe(site.url('/page'));
      expect(res.statusCode).toBe(200);
      expect(res.contentType).toBe('text/html');
      for (const h of Object.keys(res.headers)) expect(h).toBe(h.toLowerCase());
      expect(res.text).toContain('Héllo');
      expect(res.body.byteLength).toBeGreaterThan(0);
      expect(res.engine).toBe(plugin.name);
    }, 60_000);

    test('a 404 is an answer, not an error', async () => {
      const res = await plugin.fetch(request('/missing'), contractContext());
      expect(res.statusCode).toBe(404);
    }, 60_000);

    test('redirects are followed to the final URL', async () => {
      const res = await plugin.fetch(request('/moved'), contractContext());
      expect(res.url).toBe(site.url('/page'));
    }, 60_000);

    test('a private target is refused unless allowed', async () => {
      let error: unknown;
      try {
        await plugin.fetch(request('/page', { targets: GUARDED }), contractContext());
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TrawlError);
      expect((error as TrawlError).status).toBeLessThan(500);
    }, 60_000);

    for (const c of cases) {
      const missing = (c.needs ?? []).filter((f) => !plugin.features.includes(f));
      test.skipIf(missing.length > 0)(c.name, async () => {
        const res = await plugin.fetch(request(c.path, c.request?.(site)), contractContext());
        await c.expect(res, site);
      }, 60_000);
    }
  });
}
