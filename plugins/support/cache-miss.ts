/**
 * Support plugin `cache-miss`: a cache-only scrape found no copy (SCRAPE_LOCKDOWN_CACHE_MISS for
 * `lockdown: true`, SCRAPE_NO_CACHED_DATA for `minAge`). The fix fetches live: `lockdown: false`, or
 * `minAge: 0` (no copy needed).
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
        class: 'cache-miss', confidence: 'high', fixParameters: { minAge: 0 }, validate: true,
        answer: `"minAge" asks for a cached copy at least that old, and the cache has none for ${f.url ?? 'the page'}. Send "minAge": 0 to fetch it live (or use "maxAge" to accept a fresh copy).`,
      };
    }
    return undefined;
  },
});
