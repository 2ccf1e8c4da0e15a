/**
 * Resolved scrape options for tests that call engines, parsers or formats directly: the defaults of
 * interface.md "Scrape options" (core/pipeline/scrape-options.ts SCRAPE_DEFAULTS) with a 30 s
 * timeout, overridden field by field.
 */
import type { ScrapeOptions } from '../../core/http/models/scrape.ts';
import { SCRAPE_DEFAULTS } from '../../core/pipeline/scrape-options.ts';

export function testScrapeOptions(over: Partial<ScrapeOptions> = {}): ScrapeOptions {
  return {
    formats: [{ type: 'markdown' }],
    blockAds: SCRAPE_DEFAULTS.blockAds,
    lockdown: false,
    maxAge: SCRAPE_DEFAULTS.maxAge,
    mobile: false,
    onlyCleanContent: false,
    onlyMainContent: SCRAPE_DEFAULTS.onlyMainContent,
    parsers: [{ type: 'pdf' }],
    proxy: SCRAPE_DEFAULTS.proxy,
    removeBase64Images: SCRAPE_DEFAULTS.removeBase64Images,
    skipTlsVerification: SCRAPE_DEFAULTS.skipTlsVerification,
    storeInCache: SCRAPE_DEFAULTS.storeInCache,
    timeout: 30_000,
    waitFor: 0,
    zeroDataRetention: false,
    ...over,
  };
}
