/**
 * Running one monitor check on a worker (the `monitor` queue): each target becomes a job of the
 * existing machinery, a batch scrape (scrape targets, and the result URLs of search targets) or a
 * crawl, so its pages run on the crawl workers, are charged as usual and carry change tracking. Child
 * job ids are derived from the check and target, so a check run again after a crash (the queue
 * re-delivers it) finds its jobs instead of starting them twice. When every job has finished, the
 * pages, the summary and the webhook events are written in one transaction (core/monitor/pages.ts).
 */
import { createHash } from 'node:crypto';
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { createJob } from '../store/crawls.ts';
import { enqueueItems, enqueueKickoff } from '../crawl/enqueue.ts';
import { effectiveConcurrency } from '../crawl/options.ts';
import { teamSettings } from '../auth/teams.ts';
import { resolveSearchRequest } from '../search/request.ts';
import { runSearch } from '../search/run.ts';
import { resolveTargets, type ResolvedTarget } from './targets.ts';
import { getCheck, getMonitor, type CheckRow, type MonitorRow, type TargetResult } from './store.ts';
import { finishCheck } from './pages.ts';

/** How often a running check looks at its jobs, ms. */
const POLL_MS = 250;
/** How often a running check shows it is alive (`updated_at`; core/monitor/tick.ts fails silent ones), in polls. */
const HEARTBEAT_POLLS = 20;

/** A UUID-shaped id that is the same for the same check and target (idempotent job creation). */
export function childJobId(checkId: string, targetId: string): string {
  const h = createHash('sha256').update(`${checkId}/${targetId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function saveResults(services: Services, checkId: string, results: TargetResult[]): Promise<void> {
  await services.db.query('update monitor_checks set target_results = $2, updated_at = now() where id = $1', [checkId, JSON.stringify(results)]);
}

/** Creates a child job once (a second create of the same id is a unique violation: already there). */
async function createChild(services: Services, m: MonitorRow, id: string, t: ResolvedTarget, urls?: { url: string; sourceUrl: string }[]): Promise<void> {
  const team = await teamSettings(services.db, m.team_id, services.config.accounts.authCacheMs).catch(() => null);
  const teamConcurrency = team?.concurrency ?? services.config.team.concurrency;
  const crawl = t.type === 'crawl';
  try {
    const items = await createJob(services.db, {
      id, teamId: m.team_id, kind: crawl ? 'crawl' : 'batch_scrape',
      url: crawl ? t.crawler.sourceURL : urls![0].sourceUrl,
      publicOptions: { monitorId: m.id, targetId: t.id },
      options: { ...(crawl ? { crawler: t.crawler } : {}), scrape: t.scrape, apiKeyId: m.api_key_id ?? undefined, zeroDataRetention: t.scrape.zeroDataRetention },
      concurrency: effectiveConcurrency(crawl ? t.crawler.maxConcurrency : undefined, crawl ? t.crawler.delay : undefined, teamConcurrency),
      delayMs: crawl ? Math.round((t.crawler.delay ?? 0) * 1000) : 0,
      urlLimit: crawl ? t.crawler.limit : 2_000_000_000,
      zeroDataRetention: t.scrape.zeroDataRetention,
      urls,
    });
    await enqueueItems(services, items);
  } catch (e) {
    if ((e as { code?: string }).code !== '23505') throw e; // created by an earlier run of this check; the reconciler re-sends its queue items
  }
  if (crawl) await enqueueKickoff(services, id);
}

/** Starts (or finds) the job of one target. */
async function startTarget(services: Services, m: MonitorRow, check: CheckRow, t: ResolvedTarget, prior: TargetResult | undefined, remember: (r: TargetResult) => Promise<void>, signal: AbortSignal): Promise<TargetResult> {
  const jobId = childJobId(check.id, t.id);
  if (t.type === 'scrape') {
    await createChild(services, m, jobId, t, t.urls);
    return { targetId: t.id, type: 'scrape', jobId, expectedJobs: [jobId] };
  }
  if (t.type === 'crawl') {
    await createChild(services, m, jobId, t);
    return { targetId: t.id, type: 'crawl', jobId, crawlId: jobId };
  }
  let result = prior?.urls ? prior : undefined;
  if (!result) {
    const urls = new Set<string>();
    let credits = 0;
    for (const query of t.queries) {
      const r = resolveSearchRequest(
        { query, limit: t.maxResults, includeDomains: t.includeDomains, excludeDomains: t.excludeDomains, tbs: t.tbs },
        services.formats, { researchSwitchDate: services.config.researchSwitchDate },
      );
      const body = await runSearch(services, { teamId: m.team_id, keyId: m.api_key_id ?? undefined }, r, signal);
      credits += body.creditsUsed;
      for (const item of body.data.web ?? []) if (typeof item.url === 'string') urls.add(item.url);
    }
    result = { targetId: t.id, type: 'search', urls: [...urls], searchCompleted: true, resultCount: urls.size, searchCredits: credits };
    await remember(result);
  }
  if (result.urls!.length === 0) return result;
  await createChild(services, m, jobId, t, result.urls!.map((u) => ({ url: u, sourceUrl: u })));
  return { ...result, jobId };
}

/** Waits until none of `jobIds` is still scraping. @returns false when the check row is gone (monitor deleted) */
async function waitForJobs(services: Services, checkId: string, jobIds: string[], signal: AbortSignal): Promise<boolean> {
  for (let poll = 1; ; poll++) {
    if (signal.aborted) throw signal.reason ?? new TrawlError('SCRAPE_JOB_CANCELLED', 'The check was interrupted');
    if (poll % HEARTBEAT_POLLS === 0) await services.db.query(`update monitor_checks set updated_at = now() where id = $1 and status = 'running'`, [checkId]);
    const [row] = await services.db.query<{ live: number; check: number }>(
      `select (select count(*) from jobs where id = any($1::text[]) and status = 'scraping') as live,
              (select count(*) from monitor_checks where id = $2) as "check"`,
      [jobIds, checkId],
    );
    if (Number(row.check) === 0) return false;
    if (Number(row.live) === 0) return true;
    await Bun.sleep(POLL_MS);
  }
}

/**
 * Runs check `checkId` to its end. Safe to run again after a crash: finished checks are left alone,
 * jobs already created are reused. Failures end the check as `failed`; only an abort (shutdown) throws,
 * so that the queue runs it again elsewhere.
 */
export async function runCheck(services: Services, checkId: string, signal: AbortSignal): Promise<void> {
  const log = services.log.child({ component: 'monitor', checkId });
  const check = await getCheck(services.db, checkId);
  if (!check || (check.status !== 'queued' && check.status !== 'running')) return;
  const monitor = await getMonitor(services.db, check.monitor_id);
  if (!monitor) return;
  await services.db.query(`update monitor_checks set status = 'running', started_at = coalesce(started_at, now()), updated_at = now() where id = $1`, [checkId]);
  const results: TargetResult[] = check.target_results as TargetResult[];
  const save = () => saveResults(services, checkId, results);
  const upsert = (r: TargetResult) => {
    const i = results.findIndex((x) => x.targetId === r.targetId);
    if (i >= 0) results[i] = r;
    else results.push(r);
  };
  const remember = async (r: TargetResult) => {
    upsert(r);
    await save();
  };
  try {
    const { resolved } = resolveTargets(monitor.targets, monitor.id, services.formats);
    for (const t of resolved) {
      const prior = results.find((r) => r.targetId === t.id);
      try {
        await remember(await startTarget(services, monitor, check, t, prior, remember, signal));
      } catch (e) {
        if (signal.aborted) throw e;
        await remember({ targetId: t.id, type: t.type, error: TrawlError.wrap(e).message });
      }
    }
    const jobIds = results.flatMap((r) => (r.jobId ? [r.jobId] : []));
    if (!(await waitForJobs(services, checkId, jobIds, signal))) return;
    await finishCheck(services, monitor, { ...check, target_results: results }, resolved);
  } catch (e) {
    if (signal.aborted) throw e;
    log.warn({ err: e }, 'monitor check failed');
    await finishCheck(services, monitor, { ...check, target_results: results }, [], TrawlError.wrap(e).message);
  }
}
