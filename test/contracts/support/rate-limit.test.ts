/** Contract cases of the `rate-limit` support plugin. */
import { expect } from 'bun:test';
import plugin from '../../../plugins/support/rate-limit.ts';
import { contractContext } from '../suites/context.ts';
import { scrapeFailure, testSupport } from '../suites/support.ts';

const limited = { ...scrapeFailure('RATE_LIMITED', 'Rate limit of 10 requests per minute for this key exceeded.', 429), error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded', status: 429, headers: { 'Retry-After': '17' } } };

testSupport(plugin, [{ name: '429 names the wait, no parameter fix', failure: limited, expect: { fixParameters: {}, validate: false, confidence: 'high' } }]);

expect((await plugin.diagnose(limited, contractContext()))?.answer).toContain('17 s');
