/** Contract cases of the `cache-miss` support plugin. */
import plugin from '../../../plugins/support/cache-miss.ts';
import { scrapeFailure, testSupport } from '../suites/support.ts';

testSupport(plugin, [
  { name: 'a lockdown miss fetches live', failure: scrapeFailure('SCRAPE_LOCKDOWN_CACHE_MISS', 'no copy', 404, { lockdown: true }), expect: { fixParameters: { lockdown: false }, validate: true } },
  { name: 'a minAge miss has no parameter fix', failure: scrapeFailure('SCRAPE_NO_CACHED_DATA', 'no copy', 404, { minAge: 1000 }), expect: { fixParameters: {}, validate: false } },
  { name: 'a plain 404 is not this class', failure: scrapeFailure('NOT_FOUND', 'no', 404), expect: null },
]);
