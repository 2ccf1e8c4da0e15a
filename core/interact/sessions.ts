/**
 * Interact sessions (compat.md §5; issue 3 scope 7). A session is a live browser page held by the API
 * process that opened it (the first `POST /v2/scrape/{id}/interact` replays the scrape there: URL,
 * options, profile). Later calls with the same scrape id act on that page, one at a time. A session
 * ends on DELETE, after `interact.idleMs` without calls (default 300 s), `interact.maxMs` after it
 * opened (default 600 s), when its browser crashes, or at shutdown; it then saves its profile (with
 * `saveChanges`), charges 1 credit per started minute, and later calls answer 410. Deployments with
 * several API nodes must send the calls of one scrape id to the same node (the others answer 409).
 *
 * Limits (issue 15 item 9), each a 429 naming it: `interact.maxSessions` per process, under it
 * `maxSessionsPerTeam` per team (the keyless callers share one team) and `maxSessionsPerIp` per IP
 * address of keyless callers, so no single caller can take every session of a node.
 */
import type { Services } from '../services.ts';
import type { Principal } from '../auth/authenticate.ts';
import type { BrowserSession } from '../../plugins/engine/browser/session.ts';
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import { chargeCredits } from '../credits/ledger.ts';
import type { ProfileSession } from '../profiles/index.ts';
import { getScrapeRecord, type ScrapeRecord } from './records.ts';
import { replayScrape, type Replayed } from './replay.ts';
import { closeSessionRow, getSessionRow, insertSessionRow, touchSessionRow } from './store.ts';
import { callPage, PageCallError } from './page-api.ts';
import { runCode, type CodeResult } from './sandbox.ts';
import { answerPrompt } from './prompt.ts';
import { modelFor } from '../llm/service.ts';

/** A request of `POST /v2/scrape/{id}/interact` after validation. */
export interface InteractCall {
  prompt?: string;
  code?: string;
  /** Time limit of this call, ms. */
  timeoutMs: number;
  /** The caller's IP address (core/http/client-ip.ts): keyless callers are limited per address. */
  clientIp?: string;
}

/** Who holds a session (open or opening), for the per-team and per-address limits. */
interface Holder {
  teamId: string;
  /** Set for keyless callers only. */
  ip?: string;
}

export type InteractResult =
  | ({ kind: 'code' } & CodeResult)
  | { kind: 'prompt'; output: string };

interface Live {
  scrapeId: string;
  teamId: string;
  keyId?: string;
  browser: BrowserSession;
  profile?: ProfileSession;
  startedAt: number;
  /** Calls run one after another. */
  queue: Promise<unknown>;
  idleTimer?: ReturnType<typeof setTimeout>;
  maxTimer?: ReturnType<typeof setTimeout>;
  ending?: Promise<{ durationMs: number; credits: number }>;
}

/**
 * Runs one page call and fails it when threatProtection refused a navigation during it (a `goto`, a
 * click on a link, a script's redirect): the page stays where it was and the call's error names the
 * rule, as the 403 of a scrape would. A navigation that a call started and that was refused after it
 * returned (a click's) fails the next call of the same request.
 * @throws PageCallError with the threat message
 */
async function threatChecked<T>(browser: BrowserSession, call: () => Promise<T>): Promise<T> {
  let value: T;
  try {
    value = await call();
  } catch (e) {
    const refused = browser.takeRefusedThreat();
    throw refused ? await refusal(browser, refused) : e;
  }
  const refused = browser.takeRefusedThreat();
  if (refused) throw await refusal(browser, refused);
  return value;
}

/** The error of a refused navigation; when Chromium put up its error page instead, the page goes back first. */
async function refusal(browser: BrowserSession, refused: { code: string; message: string }): Promise<PageCallError> {
  if (browser.page.url().startsWith('chrome-error:')) await browser.page.goBack({ waitUntil: 'domcontentloaded', timeout: 5_000 }).catch(() => undefined);
  return new PageCallError(`${refused.code}: ${refused.message}`);
}

/** A session row untouched for longer than the idle limit (plus this) belongs to a dead process. */
const STALE_GRACE_MS = 60_000;

export class InteractSessions {
  private readonly live = new Map<string, Live>();
  private readonly opening = new Map<string, Promise<Live>>();
  /** Every session open or opening, by scrape id (what the limits count). */
  private readonly holders = new Map<string, Holder>();
  /** This process, as named in `interact_sessions.node_id`. */
  readonly nodeId = newId();
  private closed = false;

  constructor(private readonly services: Services) {}

  /** Sessions open or opening on this process. */
  get size(): number {
    return this.holders.size;
  }

  /**
   * Runs one call on the scrape's session, opening it first when needed.
   * @throws TrawlError JOB_NOT_FOUND (404), FORBIDDEN (403), CONFLICT (409: not replayable, held by
   *         another node, profile in use), GONE (410), RATE_LIMITED (429), BACKEND_UNAVAILABLE (503),
   *         UPSTREAM_ERROR (502: the browser failed) and the scrape's own errors while replaying
   */
  async interact(scrapeId: string, principal: Principal, call: InteractCall): Promise<InteractResult> {
    const record = await this.recordFor(scrapeId, principal);
    if (call.prompt !== undefined && !this.services.config.llm) {
      // Acting on a page has no deterministic fallback: a prompt without a model is refused before any work.
      throw new TrawlError(
        'BACKEND_UNAVAILABLE',
        'Interact prompts need an LLM provider: set OPENAI_BASE_URL, OPENAI_API_KEY and MODEL_NAME (any OpenAI-compatible chat completions API), or send "code" instead.',
      );
    }
    const session = this.live.get(scrapeId) ?? (await this.open(record, principal, call.clientIp));
    const run = session.queue.then(() => this.run(session, call));
    session.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Ends the caller's live session of a scrape.
   * @throws TrawlError NOT_FOUND "Browser session not found." (404) when this process holds none
   */
  async stop(scrapeId: string, principal: Principal): Promise<{ sessionDurationMs: number; creditsBilled: number }> {
    const session = this.live.get(scrapeId);
    if (!session) throw new TrawlError('NOT_FOUND', 'Browser session not found.');
    if (session.teamId !== principal.teamId) throw new TrawlError('FORBIDDEN', 'Forbidden');
    const { durationMs, credits } = await this.end(session, 'deleted');
    return { sessionDurationMs: durationMs, creditsBilled: credits };
  }

  /** Ends every session (shutdown). */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.opening.values()]);
    await Promise.allSettled([...this.live.values()].map((s) => this.end(s, 'shutdown')));
  }

  private async recordFor(scrapeId: string, principal: Principal): Promise<ScrapeRecord> {
    const record = await getScrapeRecord(this.services.db, scrapeId);
    if (!record) throw new TrawlError('JOB_NOT_FOUND', 'Job not found');
    if (record.teamId !== principal.teamId) throw new TrawlError('FORBIDDEN', 'Forbidden');
    if (record.zeroDataRetention || !record.url || !record.options) {
      throw new TrawlError('CONFLICT', 'This scrape used zero data retention, so nothing was kept to replay it in a browser session.');
    }
    return record;
  }

  /** Opens the scrape's session once, however many first calls arrive together. */
  private open(record: ScrapeRecord, principal: Principal, clientIp = 'unknown'): Promise<Live> {
    const pending = this.opening.get(record.id);
    if (pending) return pending;
    if (this.closed) return Promise.reject(new TrawlError('BACKEND_UNAVAILABLE', 'This Trawl process is shutting down.'));
    const holder: Holder = { teamId: principal.teamId, ip: principal.keyless ? clientIp : undefined };
    const refused = this.overLimit(holder);
    if (refused) return Promise.reject(new TrawlError('RATE_LIMITED', `${refused} End one with DELETE or retry later.`, { headers: { 'Retry-After': '30' } }));
    this.holders.set(record.id, holder);
    const p = (async () => {
      const row = await getSessionRow(this.services.db, record.id);
      if (row) await this.explainRow(row);
      return this.start(record, principal);
    })();
    this.opening.set(record.id, p);
    p.then(
      () => this.opening.delete(record.id),
      () => {
        this.opening.delete(record.id);
        this.holders.delete(record.id);
      },
    );
    return p;
  }

  /** Why one more session for `holder` would break a limit, or undefined when it would not. */
  private overLimit(holder: Holder): string | undefined {
    const { maxSessions, maxSessionsPerTeam, maxSessionsPerIp } = this.services.config.interact;
    if (this.size >= maxSessions) return `Too many interact sessions are open on this node (at most ${maxSessions}, TRAWL_INTERACT_MAX_SESSIONS).`;
    const held = [...this.holders.values()];
    if (holder.ip !== undefined && held.filter((h) => h.ip === holder.ip).length >= maxSessionsPerIp) {
      return `Too many interact sessions are open for keyless calls from this address (at most ${maxSessionsPerIp}, TRAWL_INTERACT_MAX_SESSIONS_PER_IP).`;
    }
    if (held.filter((h) => h.teamId === holder.teamId).length >= maxSessionsPerTeam) {
      const who = holder.ip !== undefined ? 'keyless calls together' : 'this team';
      return `Too many interact sessions are open for ${who} (at most ${maxSessionsPerTeam}, TRAWL_INTERACT_MAX_SESSIONS_PER_TEAM).`;
    }
    return undefined;
  }

  /** A session row exists but no live session here: it ended (410) or another node holds it (409). */
  private async explainRow(row: Awaited<ReturnType<typeof getSessionRow>> & object): Promise<never> {
    const stale = Date.now() - row.lastActiveAt.getTime() > this.services.config.interact.idleMs + STALE_GRACE_MS;
    if (row.status === 'open' && row.nodeId !== this.nodeId && !stale) {
      throw new TrawlError('CONFLICT', 'The browser session of this scrape is held by another Trawl API node; send the interact calls of one scrape to the same node.');
    }
    if (row.status === 'open') await closeSessionRow(this.services.db, row.scrapeId, 'lost');
    throw new TrawlError('GONE', `The browser session of this scrape was destroyed (${row.endReason ?? 'lost'}); scrape the page again to interact with it.`);
  }

  private async start(record: ScrapeRecord, principal: Principal): Promise<Live> {
    const { services } = this;
    if (!(await insertSessionRow(services.db, record.id, record.teamId, this.nodeId))) {
      await this.explainRow((await getSessionRow(services.db, record.id))!);
    }
    const log = services.log.child({ component: 'interact', scrapeId: record.id });
    const { interact } = services.config;
    let replayed: Replayed;
    try {
      replayed = await replayScrape(services, record, log, interact.maxMs + STALE_GRACE_MS);
    } catch (e) {
      await closeSessionRow(services.db, record.id, 'replay-failed');
      throw e;
    }
    const session: Live = { scrapeId: record.id, teamId: record.teamId, keyId: principal.keyId, ...replayed, startedAt: Date.now(), queue: Promise.resolve() };
    session.maxTimer = setTimeout(() => void this.end(session, 'max-duration'), interact.maxMs);
    session.maxTimer.unref?.();
    this.live.set(record.id, session);
    this.armIdle(session);
    log.info({ replayed: record.options?.actions?.length ?? 0 }, 'interact session opened');
    return session;
  }

  private armIdle(session: Live): void {
    if (session.idleTimer) clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => void this.end(session, 'idle'), this.services.config.interact.idleMs);
    session.idleTimer.unref?.();
  }

  private async run(session: Live, call: InteractCall): Promise<InteractResult> {
    if (session.ending) throw new TrawlError('GONE', 'The browser session of this scrape was destroyed; scrape the page again to interact with it.');
    if (session.browser.broken) {
      void this.end(session, 'browser-failure');
      throw new TrawlError('UPSTREAM_ERROR', 'The browser of this interact session crashed; the session was closed. Scrape the page again to start over.');
    }
    if (session.idleTimer) clearTimeout(session.idleTimer);
    const left = session.startedAt + this.services.config.interact.maxMs - Date.now();
    const timeoutMs = Math.max(1, Math.min(call.timeoutMs, left));
    const deadline = Date.now() + timeoutMs;
    const { page } = session.browser;
    session.browser.takeRefusedThreat(); // a refusal after the previous request belongs to none of this one's calls
    const callOnPage = (method: string, args: unknown[]) => threatChecked(session.browser, () => callPage({ page, blobs: this.services.blobs, deadline }, method, args));
    try {
      await touchSessionRow(this.services.db, session.scrapeId).catch(() => undefined);
      if (call.code !== undefined) return { kind: 'code', ...(await runCode(session.browser.context, call.code, timeoutMs, callOnPage)) };
      const model = modelFor(this.services, { teamId: session.teamId, apiKeyId: session.keyId, jobId: session.scrapeId })!;
      const { output } = await answerPrompt(model, page, call.prompt!, callOnPage, deadline);
      return { kind: 'prompt', output };
    } catch (e) {
      if (session.browser.broken) {
        void this.end(session, 'browser-failure');
        throw new TrawlError('UPSTREAM_ERROR', 'The browser of this interact session crashed; the session was closed.', { cause: e });
      }
      throw e;
    } finally {
      if (!session.ending) this.armIdle(session);
    }
  }

  /** Ends a session once: saves the profile, frees the page, records and charges it. */
  private end(session: Live, reason: string): Promise<{ durationMs: number; credits: number }> {
    session.ending ??= (async () => {
      clearTimeout(session.idleTimer);
      clearTimeout(session.maxTimer);
      const { services } = this;
      const durationMs = Date.now() - session.startedAt;
      const credits = Math.max(1, Math.ceil(durationMs / 60_000));
      try {
        await session.queue.catch(() => undefined);
        await session.browser.close().catch((err) => services.log.warn({ err }, 'interact session did not close cleanly'));
        await session.profile?.release();
      } finally {
        this.live.delete(session.scrapeId);
        this.holders.delete(session.scrapeId);
        await closeSessionRow(services.db, session.scrapeId, reason, credits).catch(() => undefined);
        await chargeCredits(services.db, { teamId: session.teamId, apiKeyId: session.keyId, kind: 'interact', refId: session.scrapeId, credits }).catch(
          (err) => services.log.error({ err }, 'could not charge an interact session'),
        );
        services.log.info({ scrapeId: session.scrapeId, reason, durationMs, credits }, 'interact session ended');
      }
      return { durationMs, credits };
    })();
    return session.ending;
  }
}

const managers = new WeakMap<Services, InteractSessions>();

/** The sessions of one running Trawl (one per `Services`). */
export function interactSessions(services: Services): InteractSessions {
  let m = managers.get(services);
  if (!m) {
    m = new InteractSessions(services);
    managers.set(services, m);
  }
  return m;
}
