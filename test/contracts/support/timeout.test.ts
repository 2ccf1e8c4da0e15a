/** Contract cases of the `timeout` support plugin. */
import plugin from '../../../plugins/support/timeout.ts';
import { scrapeFailure, testSupport } from '../suites/support.ts';

testSupport(plugin, [
  { name: 'SCRAPE_TIMEOUT doubles the timeout, at least 30 s', failure: scrapeFailure('SCRAPE_TIMEOUT', 'timed out', 408, { timeout: 1000 }), expect: { confidence: 'high', fixParameters: { timeout: 30_000 }, validate: true } },
  { name: 'a 60 s timeout becomes 120 s', failure: scrapeFailure('SCRAPE_TIMEOUT', 'timed out', 408, { timeout: 60_000 }), expect: { fixParameters: { timeout: 120_000 } } },
  { name: 'at the 300 s maximum there is no parameter fix', failure: scrapeFailure('SCRAPE_TIMEOUT', 'timed out', 408, { timeout: 300_000 }), expect: { fixParameters: {}, validate: false } },
  { name: 'a concurrency queue timeout is not this class', failure: scrapeFailure('CONCURRENCY_QUEUE_TIMEOUT', 'queue', 408), expect: null },
]);
