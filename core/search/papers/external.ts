/**
 * External research paper indexes (`TRAWL_PAPER_INDEXES`): services speaking the same
 * `/v2/search/research` API as Trawl (another Trawl instance, or a compatible service). Their results
 * are merged with the local `papers` table: interleaved by rank, duplicates (same primaryId or any
 * shared id) dropped. A failing index is logged and skipped.
 */
import type { ResolvedConfig } from '../../config.ts';
import type { Logger } from '../../log.ts';
import type { PaperFilters, PaperResult } from './store.ts';
import { withDeadline } from '../../net/deadline.ts';

/** Time one external index may take, ms. */
export const EXTERNAL_TIMEOUT_MS = 10_000;

function isPaper(v: unknown): v is PaperResult {
  const p = v as PaperResult;
  return !!p && typeof p === 'object' && typeof p.title === 'string' && (typeof p.paperId === 'string' || typeof p.primaryId === 'string');
}

/**
 * Queries every configured external index in parallel.
 * @returns one result list per index that answered (failed ones are left out), and the errors
 */
export async function searchExternalIndexes(
  config: ResolvedConfig,
  query: string,
  k: number,
  filters: PaperFilters,
  log: Logger,
  signal?: AbortSignal,
): Promise<{ lists: PaperResult[][]; errors: string[] }> {
  const errors: string[] = [];
  const lists = await Promise.all(
    config.search.paperIndexes.map(async (index) => {
      const url = new URL(`${index.url}/papers`);
      url.searchParams.set('query', query);
      url.searchParams.set('k', String(k));
      for (const a of filters.authors ?? []) url.searchParams.append('authors', a);
      for (const c of filters.categories ?? []) url.searchParams.append('categories', c);
      if (filters.from) url.searchParams.set('from', filters.from);
      if (filters.to) url.searchParams.set('to', filters.to);
      try {
        const { res, body } = await withDeadline(EXTERNAL_TIMEOUT_MS, signal, async (signal) => {
          const res = await fetch(url, {
            headers: { accept: 'application/json', ...(index.apiKey ? { authorization: `Bearer ${index.apiKey}` } : {}) },
            signal,
          });
          return { res, body: (await res.json().catch(() => undefined)) as { results?: unknown[]; detail?: string; error?: string } | undefined };
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}${body?.detail || body?.error ? `: ${body.detail ?? body.error}` : ''}`);
        return (body?.results ?? []).filter(isPaper).map((p) => ({
          paperId: String(p.paperId ?? p.primaryId),
          primaryId: String(p.primaryId ?? p.paperId),
          ids: p.ids && typeof p.ids === 'object' ? p.ids : {},
          title: p.title,
          abstract: typeof p.abstract === 'string' ? p.abstract : '',
          score: typeof p.score === 'number' ? p.score : 0,
        }));
      } catch (e) {
        const why = (e as Error).name === 'TimeoutError' ? `no answer within ${EXTERNAL_TIMEOUT_MS} ms` : (e as Error).message;
        errors.push(`${index.url}: ${why}`);
        log.warn({ index: index.url, err: why }, 'external paper index failed');
        return undefined;
      }
    }),
  );
  return { lists: lists.filter((l): l is PaperResult[] => l !== undefined), errors };
}

/** Interleaves ranked lists (first of each, then second of each ...), dropping duplicates; at most k. */
export function mergePaperLists(lists: PaperResult[][], k: number): PaperResult[] {
  const out: PaperResult[] = [];
  const seen = new Set<string>();
  const keys = (p: PaperResult) => [p.primaryId, ...Object.entries(p.ids ?? {}).flatMap(([ns, vs]) => (Array.isArray(vs) ? vs : []).map((v) => `${ns}:${v}`))];
  for (let i = 0; out.length < k && lists.some((l) => i < l.length); i++) {
    for (const list of lists) {
      const p = list[i];
      if (!p || out.length >= k) continue;
      const ks = keys(p);
      if (ks.some((x) => seen.has(x))) continue;
      ks.forEach((x) => seen.add(x));
      out.push(p);
    }
  }
  return out;
}

/**
 * Asks the external indexes, in order, for one resource (`/papers/{id}` or `/papers/{id}/similar`)
 * and returns the first successful JSON body; undefined when none has it.
 */
export async function getFromExternalIndexes(config: ResolvedConfig, path: string, params: URLSearchParams, log: Logger): Promise<Record<string, unknown> | undefined> {
  for (const index of config.search.paperIndexes) {
    const url = new URL(`${index.url}${path}`);
    params.forEach((v, k) => url.searchParams.append(k, v));
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json', ...(index.apiKey ? { authorization: `Bearer ${index.apiKey}` } : {}) },
        signal: AbortSignal.timeout(EXTERNAL_TIMEOUT_MS),
      });
      if (!res.ok) continue;
      const body = (await res.json()) as Record<string, unknown>;
      if (body && typeof body === 'object') return body;
    } catch (e) {
      log.warn({ index: index.url, err: (e as Error).message }, 'external paper index failed');
    }
  }
  return undefined;
}
