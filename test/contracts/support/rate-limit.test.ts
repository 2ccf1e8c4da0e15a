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

const d = await plugin.diagnose({ ...limited, at: Date.now() - 5_000 }, contractContext());
expect(d?.waitMs).toBeGreaterThan(11_000);
expect(d?.waitMs).toBeLessThanOrEqual(12_000);
