/**
 * Endpoint groups of key restrictions (interface.md Authentication 4; compat.md §18.3). A key's
 * endpoint allowlist names groups from `RESTRICTABLE_GROUPS`; `account` (team, usage, concurrency)
 * and `support` endpoints are always reachable and cannot be restricted.
 */
export const RESTRICTABLE_GROUPS = [
  'scrape', 'batch-scrape', 'crawl', 'map', 'search', 'extract', 'agent', 'parse', 'browser', 'monitor', 'research', 'llmstxt',
  'deep-research', 'fireclaw',
] as const;

export type RestrictableGroup = (typeof RESTRICTABLE_GROUPS)[number];

/** Every endpoint group a route can name. */
export type EndpointGroup = RestrictableGroup | 'account' | 'support';

/** Groups no key restriction can take away. */
export const ALWAYS_ALLOWED_GROUPS: ReadonlySet<EndpointGroup> = new Set(['account', 'support']);

/**
 * Format names a key's format allowlist may name even when this instance has no plugin for them
 * (interface.md "Scrape options" formats; compat.md §2.1), besides the registered format plugins.
 */
export const SPEC_FORMATS = [
  'markdown', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'json', 'summary', 'question', 'highlights', 'query',
  'changeTracking', 'attributes', 'branding', 'audio', 'product', 'menu', 'video', 'rawBase64',
] as const;
