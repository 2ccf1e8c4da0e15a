/**
 * Input schemas (JSON Schema) of the MCP tools, with the tool names and argument names of
 * `firecrawl-mcp` 3.x so a client configured for it switches by command or URL. They document the
 * arguments for the model; the API validates them (its 400 names the field), so options the API
 * accepts beyond these pass through (`additionalProperties`).
 */

type Schema = Record<string, unknown>;

const str = (description?: string): Schema => (description ? { type: 'string', description } : { type: 'string' });
const num = (description?: string): Schema => (description ? { type: 'number', description } : { type: 'number' });
const bool: Schema = { type: 'boolean' };
const strings: Schema = { type: 'array', items: { type: 'string' } };
const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: true,
});

/** Scrape options as firecrawl-mcp takes them: `formats` as names, options of json/query/screenshot beside them. */
const scrapeOptions: Record<string, Schema> = {
  // Names only, not listed here: the registry holds the formats (core names no format).
  formats: { type: 'array', items: { type: 'string' }, description: 'Output formats by name, markdown by default (see the API reference at /docs); json and query take jsonOptions / queryOptions.' },
  jsonOptions: object({ prompt: str(), schema: { type: 'object' } }),
  queryOptions: object({ prompt: str(), mode: { type: 'string', enum: ['directQuote', 'freeform'] } }, ['prompt']),
  screenshotOptions: object({ fullPage: bool, quality: num(), viewport: object({ width: num(), height: num() }, ['width', 'height']) }),
  parsers: { type: 'array', items: { type: 'string', enum: ['pdf'] } },
  pdfOptions: object({ maxPages: num() }),
  onlyMainContent: bool,
  redactPII: bool,
  includeTags: strings,
  excludeTags: strings,
  waitFor: num('Milliseconds to wait after load.'),
  actions: { type: 'array', items: object({ type: str(), selector: str(), milliseconds: num(), text: str(), key: str(), direction: { type: 'string', enum: ['up', 'down'] }, script: str(), fullPage: bool }, ['type']) },
  mobile: bool,
  skipTlsVerification: bool,
  removeBase64Images: bool,
  location: object({ country: str(), languages: strings }),
  storeInCache: bool,
  zeroDataRetention: bool,
  maxAge: num('Accept a cached copy at most this old, ms (0: always fetch).'),
  lockdown: bool,
  proxy: { type: 'string', enum: ['basic', 'stealth', 'enhanced', 'auto'] },
  profile: object({ name: str(), saveChanges: bool }, ['name']),
};

export const SCRAPE_INPUT = object({ url: str('The page to scrape.'), ...scrapeOptions, timeout: num('Timeout, ms.') }, ['url']);

export const MAP_INPUT = object(
  {
    url: str('The site to map.'),
    search: str(),
    sitemap: { type: 'string', enum: ['include', 'skip', 'only'] },
    includeSubdomains: bool,
    limit: num(),
    ignoreQueryParameters: bool,
  },
  ['url'],
);

export const SEARCH_INPUT = object(
  {
    query: str('The search query.'),
    limit: num(),
    tbs: str(),
    filter: str(),
    location: str(),
    includeDomains: strings,
    excludeDomains: strings,
    sources: { type: 'array', items: {} },
    categories: { type: 'array', items: {} },
    scrapeOptions: object(scrapeOptions),
  },
  ['query'],
);

export const CRAWL_INPUT = object(
  {
    url: str('Where the crawl starts.'),
    prompt: str(),
    excludePaths: strings,
    includePaths: strings,
    maxDiscoveryDepth: num(),
    sitemap: { type: 'string', enum: ['skip', 'include', 'only'] },
    limit: num('Most pages to crawl.'),
    allowExternalLinks: bool,
    allowSubdomains: bool,
    crawlEntireDomain: bool,
    delay: num(),
    maxConcurrency: num(),
    webhook: str(),
    webhookHeaders: { type: 'object', additionalProperties: { type: 'string' } },
    deduplicateSimilarURLs: bool,
    ignoreQueryParameters: bool,
    scrapeOptions: object(scrapeOptions),
    pollInterval: num('Seconds between status checks while waiting (default 2).'),
    timeout: num('Seconds to wait for the crawl to finish; past it the current status is returned.'),
  },
  ['url'],
);

export const CRAWL_STATUS_INPUT = object({ id: str('The crawl id.') }, ['id']);

/** firecrawl-mcp's firecrawl_extract arguments (the API's `/v2/extract` body; the tool waits for the answer). */
export const EXTRACT_INPUT = object(
  {
    urls: { ...strings, description: 'Pages to read; a trailing /* reads the pages of that site (bounded).' },
    prompt: str('What to extract.'),
    schema: { type: 'object', description: 'JSON Schema of the answer.' },
    allowExternalLinks: bool,
    enableWebSearch: bool,
    includeSubdomains: bool,
    pollInterval: num('Seconds between status checks while waiting (default 2).'),
    timeout: num('Seconds to wait for the extract to finish; past it the current status is returned.'),
  },
  ['urls'],
);
