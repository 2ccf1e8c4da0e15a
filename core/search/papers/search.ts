/**
 * Paper search across every paper index this instance has: the local `papers` table and the external
 * indexes of `TRAWL_PAPER_INDEXES`. Used by `GET /v2/search/research/papers` and by the `research`
 * search category after the switch date (compat.md §11.1, §11.2).
 */
import type { ResolvedConfig } from '../../config.ts';
import type { Queryable } from '../../db/client.ts';
import type { Logger } from '../../log.ts';
import { TrawlError } from '../../errors.ts';
import { hasPapers, searchPaperIndex, type PaperFilters, type PaperResult } from './store.ts';
import { mergePaperLists, searchExternalIndexes } from './external.ts';

export interface PaperSearchDeps {
  config: ResolvedConfig;
  db: Queryable;
  log: Logger;
}

/**
 * Searches all paper indexes.
 * @param k results wanted, 1..500
 * @throws TrawlError BACKEND_UNAVAILABLE (503) when there is no paper index at all (no paper stored
 *         locally and no external index configured), or when every external index failed and the
 *         local one is empty
 */
export async function searchAllPapers(deps: PaperSearchDeps, query: string, k: number, filters: PaperFilters = {}, signal?: AbortSignal): Promise<PaperResult[]> {
  const localAvailable = await hasPapers(deps.db);
  const externals = deps.config.search.paperIndexes.length;
  if (!localAvailable && externals === 0) {
    throw new TrawlError(
      'BACKEND_UNAVAILABLE',
      'No research paper index is available: scrape or crawl paper pages (pages with citation_* meta tags such as arXiv abstract pages, or paper PDFs) to build the local index, or set TRAWL_PAPER_INDEXES.',
    );
  }
  const [local, external] = await Promise.all([
    localAvailable ? searchPaperIndex(deps.db, query, k, filters) : Promise.resolve([] as PaperResult[]),
    externals ? searchExternalIndexes(deps.config, query, k, filters, deps.log, signal) : Promise.resolve({ lists: [], errors: [] }),
  ]);
  if (!localAvailable && external.lists.length === 0) {
    throw new TrawlError('BACKEND_UNAVAILABLE', `No research paper index answered: ${external.errors.join('; ')}`);
  }
  return mergePaperLists([local, ...external.lists], k);
}
