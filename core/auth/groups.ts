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

