/**
 * Single scrapes that "succeeded" with (almost) no content or with a refusing target status
 * (401, 403, 429, 503), as `POST /v2/support/ask` reads them
 * (issue 21): the caller team's documents of the last 24 hours whose content (every output but
 * the metadata and the warning, whatever the formats) is under `EMPTY_CHARS` characters, with a replayable request built from the scrape's record (its URL and
 * requested formats). Zero data retention scrapes store no document, so they never appear.
 */
import type { Queryable } from '../db/client.ts';
import type { SupportFailure } from '../plugin.ts';

/** Content shorter than this, characters, counts as empty. */
export const EMPTY_CHARS = 40;
/** Target statuses of a scrape that was most likely turned away (core/pipeline/proxy.ts `looksBlocked`). */
export const BLOCKED_STATUS: ReadonlySet<number> = new Set([401, 403, 429, 503]);

/** The team's near-empty or turned-away single scrapes, newest first (all, or the one with `id`, or those of `url`). */
export async function emptyScrapes(db: Queryable, teamId: string, filter: { id?: string; url?: string } = {}, limit = 5): Promise<SupportFailure[]> {
  const rows = await db.query<Record<string, any>>(
    `select d.id, d.url, d.source_url, d.status_code, d.created_at, r.options -> 'formats' as formats,
            (select sum(length(e.value)) from jsonb_each_text(d.body::jsonb) e where e.key not in ('metadata', 'warning')) as content_chars
       from documents d left join scrape_records r on r.id = d.id and r.team_id = d.team_id
      where d.team_id = $1 and d.job_id is null and d.created_at > now() - interval '24 hours'
        and ($2::text is null or d.id = $2) and ($3::text is null or d.source_url = $3 or d.url = $3 or d.url = rtrim($3, '/'))
      order by d.created_at desc limit 50`,
    [teamId, filter.id ?? null, filter.url ?? null],
  );
  const out: SupportFailure[] = [];
  for (const r of rows) {
    if (Number(r.content_chars ?? 0) >= EMPTY_CHARS && !BLOCKED_STATUS.has(Number(r.status_code))) continue;
    const formats = Array.isArray(r.formats) ? r.formats.map((f: any) => (typeof f === 'object' && f && Object.keys(f).length === 1 ? f.type : f)) : undefined;
    out.push({
      id: r.id,
      kind: 'scrape',
      url: r.source_url,
      request: { url: r.source_url, ...(formats ? { formats } : {}) },
      document: { statusCode: Number(r.status_code), contentChars: Number(r.content_chars ?? 0) },
      at: new Date(r.created_at).getTime(),
    });
    if (out.length >= limit) break;
  }
  return out;
}
