/**
 * Input fuzz of every POST route (issue 15 "Done when"): the routes are read from the Elysia app, so
 * a new route is covered without editing this file, and each gets the small deterministic sample of
 * test/e2e/fuzz-cases.ts (huge and wrongly typed headers, deep nesting, NUL and surrogates, null
 * objects, wrong types, non-JSON bodies, chunked bodies over the limit). No answer may be a 500, and
 * the server must still answer /health afterwards. The full set runs in bench/security/fuzz.ts.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { createApp } from '../../core/http/app.ts';
import { concretePath, fuzzCases, sendCase } from './fuzz-cases.ts';

const MAX_BODY = 256 * 1024;
let trawl: TestTrawl;
let site: FixtureSite;
let routes: string[];

beforeAll(async () => {
  site = serveFixtures({ '/': '<html><head><title>Fuzz</title></head><body><p>fuzz target</p></body></html>' });
  trawl = await startTrawl({
    TRAWL_AUTH: 'off',
    TRAWL_MAX_BODY_BYTES: String(MAX_BODY),
    TRAWL_KEYLESS_RATE_LIMIT_PER_MINUTE: '1000000',
    TRAWL_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  routes = createApp(trawl.running.services).routes.filter((r) => r.method === 'POST').map((r) => r.path);
}, 120_000);

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
}, 120_000);

test('the route list is read from the app', () => {
  expect(routes).toContain('/v2/scrape');
  expect(routes).toContain('/v1/search');
  expect(routes.length).toBeGreaterThanOrEqual(15);
});

test('no bad body gets a 500 on any POST route, and /health still answers', async () => {
  const cases = fuzzCases('sample', MAX_BODY, site.url('/'));
  const failures: string[] = [];
  const statuses: Record<number, number> = {};
  for (const route of routes) {
    const path = concretePath(route);
    for (const c of cases) {
      const { status, code } = await sendCase(trawl.base, path, c, 30_000);
      statuses[status] = (statuses[status] ?? 0) + 1;
      // 500 is the bug class; 0 is no answer. (503 "no language model configured" is a real answer.)
      if (status === 500 || status === 0) failures.push(`${route} ${c.name}: ${status} ${code ?? ''}`);
    }
  }
  expect(failures).toEqual([]);
  expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(routes.length * cases.length);
  const health = await fetch(`${trawl.base}/health`, { signal: AbortSignal.timeout(10_000) });
  expect(health.status).toBe(200);
}, 600_000);
