/**
 * Provider fallback: asks search providers in the configured order (`TRAWL_SEARCH_PROVIDERS`, else
 * the configured ones among searxng, brave, serper, google, then local) and returns the first answer.
 * A provider is skipped when it is not configured or does not serve the source; a failing one hands
 * over to the next with the time that is left. When none answers: 408 if the deadline passed, else a
 * 503 naming every provider and why it failed (compat.md §1.1: absent backend → 503).
 */
import type { ResolvedConfig } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { BlobStore } from '../blobs.ts';
import type { Registry } from '../registry.ts';
import type { SearchHit, SearchQuery } from '../plugin.ts';
import { TrawlError } from '../errors.ts';
import { withDeadline } from '../net/deadline.ts';

export interface ProviderDeps {
  config: ResolvedConfig;
  log: Logger;
  db: Queryable;
  registry: Registry;
  blobs: BlobStore;
  /** Teams whose local-index pages the search may read (core/search/visibility.ts). */
  indexTeams?: readonly string[];
}

/** Builds the 408 of a search that ran out of time (compat.md §11.1: code SCRAPE_TIMEOUT). */
export function searchTimeout(timeoutMs: number): TrawlError {
  return new TrawlError('SCRAPE_TIMEOUT', `Search timed out after ${timeoutMs} ms. Raise "timeout" (max 300000) or retry.`);
}

/**
 * Runs one source's query through the providers.
 * @param deadline epoch ms by which the answer is needed
 * @returns the hits and the name of the provider that answered
 * @throws TrawlError SCRAPE_TIMEOUT (408) when the deadline passed; BACKEND_UNAVAILABLE (503) when
 *         no provider is configured for the source or every provider failed
 */
export async function searchWithFallback(
  deps: ProviderDeps,
  query: SearchQuery,
  deadline: number,
  signal?: AbortSignal,
): Promise<{ hits: SearchHit[]; provider: string }> {
  const failures: string[] = [];
  let tried = 0;
  for (const name of deps.config.search.providers) {
    if (!deps.registry.has('search-provider', name)) {
      failures.push(`${name}: no such provider (known: ${deps.registry.names('search-provider').join(', ')})`);
      continue;
    }
    const plugin = await deps.registry.get('search-provider', name);
    if (!plugin.configured(deps.config) || (plugin.sources && !plugin.sources.includes(query.source))) continue;
    if (Date.now() >= deadline) throw searchTimeout(query.timeoutMs);
    tried++;
    const log = deps.log.child({ plugin: `search:${name}` });
    const started = Date.now();
    try {
      const hits = await withDeadline(Math.max(1, deadline - Date.now()), signal, (signal) =>
        plugin.search(query, { config: deps.config, log, signal, deadline, blobs: deps.blobs, db: deps.db, indexTeams: deps.indexTeams }),
      );
      log.debug({ source: query.source, results: hits.length, ms: Date.now() - started }, 'search provider answered');
      return { hits, provider: name };
    } catch (e) {
      const err = TrawlError.wrap(e);
      log.warn({ source: query.source, err: err.message, ms: Date.now() - started }, 'search provider failed; trying the next');
      failures.push(err.message.startsWith('[') ? err.message : `[${name}] ${err.message}`);
    }
  }
  if (Date.now() >= deadline) throw searchTimeout(query.timeoutMs);
  if (tried === 0) {
    throw new TrawlError(
      'BACKEND_UNAVAILABLE',
      `No search provider is configured for ${query.source} results${failures.length ? ` (${failures.join('; ')})` : ''}. Set SEARXNG_URL, BRAVE_API_KEY, SERPER_API_KEY or GOOGLE_CSE_KEY with GOOGLE_CSE_ID, or include "local" in TRAWL_SEARCH_PROVIDERS.`,
    );
  }
  throw new TrawlError('BACKEND_UNAVAILABLE', `No search provider could answer: ${failures.join('; ')}`);
}
