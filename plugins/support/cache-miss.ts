/**
 * Support plugin `cache-miss`: a cache-only scrape found no copy (SCRAPE_LOCKDOWN_CACHE_MISS for
 * `lockdown: true`, SCRAPE_NO_CACHED_DATA for `minAge`). The lockdown fix fetches live
 * (`lockdown: false`). `minAge` has no value that fetches live (it is at least 1), so that fix is to
 * leave the field out, which merged parameters cannot say: no fixParameters, no re-run. Lockdown
 * requests are never stored (zero data retention), so their failure comes in the ask `context`.
 */
import { defineSupport } from '../../core/plugin.ts';

export default defineSupport({
  name: 'cache-miss',
  diagnose(f) {
    const code = f.error?.code;
    if (code === 'SCRAPE_LOCKDOWN_CACHE_MISS') {
      return {
        class: 'cache-miss', confidence: 'high', fixParameters: { lockdown: false }, validate: true,
        answer: `The scrape asked for "lockdown": true, which only answers from the cache, and the cache has no copy of ${f.url ?? 'the page'} (a lockdown miss costs 1 credit). Send "lockdown": false to fetch it live once (this contacts the site); later lockdown requests then find the copy if "storeInCache" is not false.`,
      };
    }
    if (code === 'SCRAPE_NO_CACHED_DATA') {
      return {
        class: 'cache-miss', confidence: 'high', fixParameters: {}, validate: false,
        answer: `"minAge" answers only from the cache, with a copy at least that old, and the cache has none for ${f.url ?? 'the page'}. Send the request without "minAge" to fetch it live ("maxAge" then still accepts a cached copy up to that age).`,
      };
    }
    return undefined;
  },
});
