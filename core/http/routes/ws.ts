/**
 * Real-time crawl and batch results over WebSocket (compat.md §9) on `GET /v2/crawl/{id}`,
 * `/v2/batch/scrape/{id}` and `/v1/crawl/{id}` with `Upgrade: websocket`. The key comes in the
 * `Authorization` header or as the offered subprotocol, which is echoed in the 101 response. The
 * upgrade always succeeds and authorization follows, so clients see a close reason rather than an
 * HTTP error. Frames: one `catchup` with the status and every document so far (up to ~10 MB, the rest
 * as `document` frames), then one `document` per newly finished page (checked about every second);
 * the end is a close 1000 with reason `{"type":"done"}` once the status endpoint is terminal.
 */
import { Elysia } from 'elysia';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { bearerKey } from '../../auth/authenticate.ts';
import { jobForTeam } from '../../crawl/access.ts';
import { MAX_PAGE_BYTES, statusHead, withRawMembers } from '../../crawl/status.ts';
import { documentForKey } from '../../auth/document-filter.ts';
import { documentsPage, getJob, jobCounters, type JobKind } from '../../store/crawls.ts';
import { admitKey } from '../guard.ts';
import { clientIp } from '../client-ip.ts';

/** How often new documents are looked for, ms. */
const POLL_MS = 1_000;
const PING_MS = 30_000;

interface Socket {
  send(data: string): unknown;
  close(code?: number, reason?: string): unknown;
  ping?(data?: string): unknown;
  readonly readyState: number;
}

/** A close reason within the 123-byte limit of the protocol. */
function errorReason(message: string): string {
  let m = message;
  let reason = JSON.stringify({ type: 'error', error: m });
  while (Buffer.byteLength(reason) > 123 && m.length > 0) {
    m = m.slice(0, -4);
    reason = JSON.stringify({ type: 'error', error: `${m}...` });
  }
  return reason;
}

function closeCode(e: TrawlError): number {
  if (e.code === 'UNAUTHORIZED') return 3000;
  if (e.code === 'FORBIDDEN') return 3003;
  if (e.code === 'JOB_NOT_FOUND' || e.code === 'JOB_EXPIRED') return 1008;
  return 1011;
}

/** Streams one job to one socket until it ends or the socket closes. */
async function stream(services: Services, ws: Socket, req: { key?: string; ip: string; id: string; kind: JobKind }, closed: () => boolean): Promise<void> {
  let job;
  let view: (doc: string) => string;
  try {
    const principal = await admitKey(services, { key: req.key, ip: req.ip, method: 'GET' }, { group: req.kind === 'crawl' ? 'crawl' : 'batch-scrape', status: true });
    job = await jobForTeam(services.db, req.id, principal.teamId, req.kind);
    // A format-restricted key sees only its formats of the documents (issue 15 item 11).
    view = (doc) => documentForKey(doc, principal);
  } catch (error) {
    const e = TrawlError.wrap(error);
    ws.close(closeCode(e), errorReason(e.status >= 500 ? 'Internal error' : e.message));
    return;
  }
  const first = await documentsPage(services.db, job.id, 0, undefined, MAX_PAGE_BYTES);
  let sent = first.length;
  const counters = await jobCounters(services.db, job);
  const head = statusHead(job, counters);
  delete head.success;
  const snapshot = withRawMembers({ success: true, ...head }, [['data', `[${first.map(view).join(',')}]`]]);
  ws.send(`{"type":"catchup","data":${snapshot}}`);
  let lastPing = Date.now();
  for (;;) {
    if (closed()) return;
    const docs = await documentsPage(services.db, job.id, sent, undefined, MAX_PAGE_BYTES);
    for (const d of docs) {
      if (closed()) return;
      ws.send(`{"type":"document","data":${view(d)}}`);
    }
    sent += docs.length;
    if (docs.length > 0) continue;
    if (job.status !== 'scraping') {
      ws.close(1000, '{"type":"done"}');
      return;
    }
    if (Date.now() - lastPing > PING_MS) {
      ws.ping?.();
      lastPing = Date.now();
    }
    await Bun.sleep(POLL_MS);
    job = (await getJob(services.db, job.id)) ?? job;
  }
}

/** One WebSocket route: the `path` must be the job's status path (`/v2/crawl/:id`). */
function jobSocket(services: Services, path: string, kind: JobKind) {
  const log = services.log.child({ component: 'ws' });
  const state = new WeakMap<object, { closed: boolean }>();
  return new Elysia({ name: `ws${path}` }).ws(path, {
    upgrade(ctx) {
      const offered = ctx.request.headers.get('sec-websocket-protocol');
      if (offered) ctx.set.headers['sec-websocket-protocol'] = offered.split(',')[0].trim();
    },
    open(ws) {
      const raw = ws.raw as unknown as Socket & object;
      const s = { closed: false };
      state.set(raw, s);
      const request = ws.data.request as Request;
      const protocol = request.headers.get('sec-websocket-protocol')?.split(',')[0].trim();
      const key = bearerKey(request.headers.get('authorization')) ?? (protocol || undefined);
      const id = String((ws.data.params as Record<string, string>).id);
      stream(services, raw, { key, ip: clientIp(request), id, kind }, () => s.closed || raw.readyState > 1).catch((err) => {
        log.warn({ err }, 'websocket stream failed');
        if (!s.closed) raw.close(1011, errorReason('Internal error'));
      });
    },
    close(ws) {
      const s = state.get(ws.raw as unknown as object);
      if (s) s.closed = true;
    },
    message() {},
  });
}

export function wsRoutes(services: Services) {
  return new Elysia({ name: 'routes/ws' })
    .use(jobSocket(services, '/v2/crawl/:id', 'crawl'))
    .use(jobSocket(services, '/v1/crawl/:id', 'crawl'))
    .use(jobSocket(services, '/v2/batch/scrape/:id', 'batch_scrape'))
    .use(jobSocket(services, '/v1/batch/scrape/:id', 'batch_scrape'));
}
