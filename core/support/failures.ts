/**
 * Failed requests kept for `POST /v2/support/ask` (issue 21; table `support_failures`, migration
 * 0019): the body as the caller sent it, the error it got and how long it took, for the caller's team
 * only, for 24 hours, at most `KEEP_PER_TEAM` per team. Written by the HTTP error mapping for the job
 * endpoints; zero data retention and lockdown requests, keyless calls and failed authentication are
 * never stored. Crawl and batch jobs that fail after they were accepted are read from `jobs`
 * (core/support/jobs.ts).
 */
import type { Database, Queryable } from '../db/client.ts';
import type { ResolvedConfig } from '../config.ts';
import type { SerializedError, TrawlError } from '../errors.ts';
import { authenticate, bearerKey } from '../auth/authenticate.ts';
import { keepsNoData } from '../privacy/retention.ts';
import { newId } from '../ids.ts';
import type { SupportFailure } from '../plugin.ts';

/** Most failures kept per team (older ones go first). */
export const KEEP_PER_TEAM = 200;
/** At most one 429 kept per team in this time, ms: a flood of refused requests costs no database writes. */
export const RATE_LIMITED_EVERY_MS = 10_000;
const lastRateLimited = new Map<string, number>();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Endpoint kinds whose failures are kept, by request path. */
const KINDS: Record<string, 'scrape' | 'crawl' | 'batch_scrape' | 'map'> = {
  '/v2/scrape': 'scrape',
  '/v1/scrape': 'scrape',
  '/v2/crawl': 'crawl',
  '/v1/crawl': 'crawl',
  '/v2/batch/scrape': 'batch_scrape',
  '/v1/batch/scrape': 'batch_scrape',
  '/v2/map': 'map',
  '/v1/map': 'map',
};

/**
 * Keeps a failed POST to a job endpoint (scrape, crawl, batch, map) for its team. Unauthenticated,
 * keyless, zero-data-retention and lockdown requests are skipped; 429s are kept at most once per team
 * per `RATE_LIMITED_EVERY_MS`. Never throws.
 * @param requestId the response's `x-request-id`: the kept failure's id when it is a UUID, so the
 *   caller can name it in a question
 * @param body the parsed request body (undefined when the body itself failed)
 */
export async function keepFailure(
  db: Database,
  config: ResolvedConfig,
  request: Request,
  body: unknown,
  error: TrawlError,
  log: { warn(obj: object, msg: string): void },
  requestId?: string,
): Promise<void> {
  try {
    const kind = request.method === 'POST' ? KINDS[new URL(request.url).pathname] : undefined;
    if (!kind || !body || typeof body !== 'object' || Array.isArray(body)) return;
    if (error.status === 401) return;
    const b = body as Record<string, unknown>;
    if (keepsNoData({ zeroDataRetention: b.zeroDataRetention === true, lockdown: b.lockdown === true })) return;
    const principal = await authenticate(db, config, bearerKey(request.headers.get('authorization')), false).catch(() => undefined);
    if (!principal || principal.keyless) return;
    if (error.status === 429) {
      const now = Date.now();
      if (now - (lastRateLimited.get(principal.teamId) ?? 0) < RATE_LIMITED_EVERY_MS) return;
      if (lastRateLimited.size > 10_000) lastRateLimited.clear();
      lastRateLimited.set(principal.teamId, now);
    }
    const url = typeof b.url === 'string' ? b.url.slice(0, 4096) : null;
    const id = requestId && UUID.test(requestId) ? requestId.toLowerCase() : newId();
    await db.query(`insert into support_failures (id, team_id, kind, url, request, error, status) values ($1, $2, $3, $4, $5, $6, $7) on conflict (id) do nothing`, [
      id, principal.teamId, kind, url, b, error.toJSON(), error.status,
    ]);
    await db.query(
      `delete from support_failures where team_id = $1 and (created_at < now() - interval '24 hours'
         or id in (select id from support_failures where team_id = $1 order by created_at desc offset ${KEEP_PER_TEAM}))`,
      [principal.teamId],
    );
  } catch (err) {
    log.warn({ err }, 'support: could not keep a failed request');
  }
}

/**
 * The team's kept failures, newest first: all of them, or those with `id` or `url`.
 * Only rows of `teamId` are ever read.
 */
export async function keptFailures(db: Queryable, teamId: string, filter: { id?: string; url?: string } = {}, limit = 5): Promise<SupportFailure[]> {
  const rows = await db.query<Record<string, any>>(
    `select id, team_id, kind, url, request, error, status, created_at from support_failures
      where team_id = $1 and created_at > now() - interval '24 hours'
        and ($2::text is null or id = $2) and ($3::text is null or url = $3 or url = rtrim($3, '/'))
      order by created_at desc limit ${Math.max(1, Math.min(50, limit))}`,
    [teamId, filter.id ?? null, filter.url ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    url: r.url ?? undefined,
    request: r.request,
    error: { code: r.error.code, message: r.error.message, status: r.status, headers: r.error.headers },
    at: new Date(r.created_at).getTime(),
  }));
}
