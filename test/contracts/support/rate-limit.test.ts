/** Contract cases of the `rate-limit` support plugin. */
import { expect } from 'bun:test';
import plugin from '../../../plugins/support/rate-limit.ts';
import { contractContext } from '../suites/context.ts';
import { scrapeFailure, testSupport } from '../suites/support.ts';

const limited = { ...scrapeFailure('RATE_LIMITED', 'Rate limit of 10 requests per minute for this key exceeded.', 429), error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded', status: 429, headers: { 'Retry-After': '17' } } };

testSupport(plugin, [
  { name: '429 names the wait, no parameter fix; validated after the wait', failure: limited, expect: { fixParameters: {}, validate: true, confidence: 'high' } },
  { name: 'the time since the failure counts', failure: { ...limited, at: Date.now() - 20_000 }, expect: { waitMs: 0 } },
  { name: 'without Retry-After: not validated', failure: { ...limited, error: { ...limited.error, headers: {} } }, expect: { validate: false } },
]);

expect((await plugin.diagnose(limited, contractContext()))?.answer).toContain('17 s');

// The wait is Retry-After (17 s) less the time since the failure, read around the call so that a slow
// (loaded) machine cannot move it outside the bounds: exactly 17 s - (now - at) for some now in [before, after].
const at = Date.now() - 5_000;
const before = Date.now();
const d = await plugin.diagnose({ ...limited, at }, contractContext());
const after = Date.now();
expect(d?.waitMs).toBeGreaterThanOrEqual(17_000 - (after - at));
expect(d?.waitMs).toBeLessThanOrEqual(17_000 - (before - at));
