/**
 * Fetching the files a crawl or map reads besides pages: robots.txt and sitemaps. Goes through the
 * registered `fetch` engine, so redirects, the SSRF guard on every hop, the body size cap and charset
 * decoding are the same as for scrapes. Gzipped bodies (`.xml.gz` served as a file) are inflated.
 */
import { gunzipSync } from 'node:zlib';
import type { ResolvedConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Registry } from '../registry.ts';
import type { BlobStore } from '../blobs.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { SCRAPE_DEFAULTS } from '../pipeline/scrape-options.ts';
import { withDeadline } from '../net/deadline.ts';

export interface ResourceDeps {
  config: ResolvedConfig;
  log: Logger;
  registry: Registry;
  blobs: BlobStore;
}

export interface Resource {
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** Body as text (inflated when gzipped), or undefined for binary content. */
  text?: string;
}

/** Scrape options for a resource fetch: defaults, no formats. */
const RESOURCE_OPTIONS: ScrapeOptions = {
  formats: [],
  blockAds: false,
  lockdown: false,
  maxAge: 0,
  mobile: false,
  onlyCleanContent: false,
  onlyMainContent: false,
  parsers: [],
  proxy: 'basic',
  removeBase64Images: true,
  skipTlsVerification: SCRAPE_DEFAULTS.skipTlsVerification,
  storeInCache: false,
  timeout: 30_000,
  waitFor: 0,
  zeroDataRetention: false,
};

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Fetches `url` with the fetch engine.
 * @param timeoutMs overall time for this fetch, ms
 * @param headers extra request headers (e.g. Accept-Language of a map's `location`)
 * @throws TrawlError from the engine (SCRAPE_SITE_ERROR, SCRAPE_TIMEOUT, UNSAFE_TARGET ...)
 */
export async function fetchResource(deps: ResourceDeps, url: string, timeoutMs: number, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<Resource> {
  const engine = await deps.registry.get('engine', 'fetch');
  const response = await withDeadline(timeoutMs, signal, (signal) =>
    engine.fetch(
      {
        url,
        headers: { accept: 'text/plain, application/xml, text/xml, application/gzip, */*;q=0.5', ...headers },
        options: { ...RESOURCE_OPTIONS, timeout: timeoutMs },
        timeoutMs,
        targets: deps.config.targets,
      },
      { config: deps.config, log: deps.log, blobs: deps.blobs, deadline: Date.now() + timeoutMs, signal },
    ),
  );
  let text = response.text;
  if (isGzip(response.body)) {
    try {
      text = gunzipSync(response.body, { maxOutputLength: deps.config.maxFetchBytes }).toString('utf8');
    } catch {
      text = undefined;
    }
  }
  return { url: response.url, status: response.statusCode, contentType: response.contentType, text };
}
