/**
 * The end of a check: read the pages its jobs produced, give each its change status, and write the
 * pages, the summary, the monitor's last summary and the webhook events (`monitor.page` for new,
 * changed and removed pages; `monitor.check.completed`) in one transaction. A page's status is the one
 * its change tracking output reports (`changeStatus`, with its diff); pages without one (zero data
 * retention, or no change tracking format) are compared with the previous check by a hash of their
 * markdown. Pages of the previous check that no job returned this time are `removed`.
 */
import { createHash } from 'node:crypto';
import type { Services } from '../services.ts';
import { newId } from '../ids.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { resolveWebhook } from '../webhooks/spec.ts';
import { kickJob } from '../webhooks/deliver.ts';
import { webhookDeps } from '../crawl/webhook-deps.ts';
import { recordPageGone } from '../page-versions/index.ts';
import { changeTagOf, type ResolvedTarget } from './targets.ts';
import { pageChangesFormat } from '../scrape/formats.ts';
import { checkView, pageView, type CheckRow, type CheckStatus, type CheckSummary, type MonitorRow, type PageRow, type PageStatus, type TargetResult } from './store.ts';

type NewPage = Omit<PageRow, 'created_at'>;
const STATUSES = new Set<PageStatus>(['new', 'same', 'changed', 'removed']);
/** Rows inserted per statement. */
const PAGE_BATCH = 500;

interface PreviousPage {
  target_id: string;
  url: string;
  status: PageStatus;
  current_scrape_id: string | null;
  hash: string | null;
}

const hashOf = (text: unknown) => createHash('sha256').update(typeof text === 'string' ? text : '').digest('hex');

/** The diff of a change tracking output in the SDK's `MonitorPageDiff` shape. */
function diffOf(ct: Record<string, any>): NewPage['diff'] {
  const text = typeof ct.diff === 'string' ? ct.diff : ct.diff?.text;
  const json = ct.json ?? ct.diff?.json;
  return text === undefined && json === undefined ? null : { ...(text !== undefined ? { text } : {}), ...(json !== undefined ? { json } : {}) };
}

/** Pages of one check, in target order. */
async function collectPages(services: Services, m: MonitorRow, check: CheckRow, targets: ResolvedTarget[]): Promise<NewPage[]> {
  const changeName = pageChangesFormat(services.formats)?.name;
  const [prev] = await services.db.query<{ id: string }>(
    `select id from monitor_checks where monitor_id = $1 and id <> $2 and status in ('completed', 'partial') order by created_at desc limit 1`,
    [m.id, check.id],
  );
  const previous = prev
    ? await services.db.query<PreviousPage>(
        `select target_id, url, status, current_scrape_id, metadata->>'contentHash' as hash from monitor_pages where check_id = $1`,
        [prev.id],
      )
    : [];
  const before = new Map(previous.map((p) => [`${p.target_id} ${p.url}`, p]));
  const seen = new Set<string>();
  const pages: NewPage[] = [];
  const add = (p: Omit<NewPage, 'ordinal' | 'id'>) => pages.push({ ...p, ordinal: pages.length, id: newId() });
  for (const t of targets) {
    const r = (check.target_results as TargetResult[]).find((x) => x.targetId === t.id);
    if (r?.error) {
      add({ target_id: t.id, url: t.type === 'scrape' ? t.urls[0].sourceUrl : t.type === 'crawl' ? t.crawler.sourceURL : t.queries[0], status: 'error', previous_scrape_id: null, current_scrape_id: null, status_code: null, error: r.error, diff: null, snapshot: null, metadata: null });
      continue;
    }
    if (!r?.jobId) continue;
    const docs = await services.db.query<{ id: string; body: string }>('select id, body from documents where job_id = $1 order by created_at, id', [r.jobId]);
    for (const row of docs) {
      const doc = JSON.parse(row.body) as Record<string, any>;
      const md = (doc.metadata ?? {}) as Record<string, any>;
      const url = String(md.sourceURL ?? md.url);
      const key = `${t.id} ${url}`;
      const old = before.get(key);
      seen.add(key);
      const ct = (changeName ? doc[changeName] : undefined) as Record<string, any> | undefined;
      const hash = hashOf(doc.markdown);
      const code = Number(md.statusCode) || null;
      let status: PageStatus;
      if (ct && STATUSES.has(ct.changeStatus)) status = ct.changeStatus;
      else if (code === 404 || code === 410) status = old && old.status !== 'removed' ? 'removed' : 'error';
      else status = !old || old.status === 'removed' || old.status === 'error' ? 'new' : old.hash === hash ? 'same' : 'changed';
      add({
        target_id: t.id, url, status, previous_scrape_id: old?.current_scrape_id ?? null, current_scrape_id: String(md.scrapeId ?? row.id), status_code: code,
        error: status === 'error' ? `HTTP ${code}` : null,
        diff: ct && status === 'changed' ? diffOf(ct) : null,
        snapshot: doc.json !== undefined ? { json: doc.json } : null,
        metadata: { title: md.title, statusCode: code, sourceURL: md.sourceURL, url: md.url, scrapeId: md.scrapeId, contentHash: hash, ...(ct ? { changeTracking: ct } : {}) },
      });
    }
    const failed = await services.db.query<{ source_url: string; error_code: string | null; error: string | null }>(
      `select source_url, error_code, error from crawl_urls where job_id = $1 and status = 'failed' order by created_at`,
      [r.jobId],
    );
    for (const f of failed) {
      const key = `${t.id} ${f.source_url}`;
      seen.add(key);
      add({ target_id: t.id, url: f.source_url, status: 'error', previous_scrape_id: before.get(key)?.current_scrape_id ?? null, current_scrape_id: null, status_code: null, error: `${f.error_code ?? 'ERROR'}: ${f.error ?? ''}`.slice(0, 2000), diff: null, snapshot: null, metadata: null });
    }
  }
  // Pages the previous check had that no job returned now (a crawl no longer links them): gone from
  // the page history too (hidden: known only from history), so a later return is `new` again.
  const byId = new Map(targets.map((t) => [t.id, t]));
  for (const p of previous) {
    const t = byId.get(p.target_id);
    if (!t || seen.has(`${p.target_id} ${p.url}`) || p.status === 'removed' || p.status === 'error') continue;
    const tag = changeTagOf(t, services.formats);
    const ct = tag === undefined ? undefined : await recordPageGone(services.db, { teamId: m.team_id, url: p.url, tag, visibility: 'hidden', zeroDataRetention: t.scrape.zeroDataRetention });
    add({
      target_id: p.target_id, url: p.url, status: 'removed', previous_scrape_id: p.current_scrape_id, current_scrape_id: null, status_code: null, error: null, diff: null, snapshot: null,
      metadata: ct ? { changeTracking: ct } : null,
    });
  }
  return pages;
}

function summarize(pages: NewPage[]): CheckSummary {
  const s: CheckSummary = { totalPages: pages.length, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  for (const p of pages) s[p.status]++;
  return s;
}

/**
 * Ends a running check: `completed` (no page failed), `partial` (some did), `failed` (all did, or
 * `error` is given). A check no longer running (finished elsewhere, or deleted) is left alone.
 */
export async function finishCheck(services: Services, m: MonitorRow, check: CheckRow, targets: ResolvedTarget[], error?: string): Promise<void> {
  const pages = error ? [] : await collectPages(services, m, check, targets);
  const summary = summarize(pages);
  const ok = pages.length - summary.error;
  const status: CheckStatus = error ? 'failed' : summary.error === 0 ? 'completed' : ok > 0 ? 'partial' : 'failed';
  const results = check.target_results as TargetResult[];
  const jobIds = results.flatMap((r) => (r.jobId ? [r.jobId] : []));
  const [{ credits }] = await services.db.query<{ credits: number }>('select coalesce(sum(credits_used), 0)::int as credits from crawl_jobs where id = any($1::text[])', [jobIds]);
  const creditsUsed = Number(credits) + results.reduce((n, r) => n + (r.searchCredits ?? 0), 0);
  const webhook = m.webhook ? resolveWebhook(m.webhook) : undefined;
  let events = 0;
  await services.db.transaction(async (tx) => {
    const [done] = await tx.query<CheckRow>(
      `update monitor_checks set status = $2, finished_at = now(), summary = $3, target_results = $4, credits_used = $5, error = $6, updated_at = now()
       where id = $1 and status in ('queued', 'running') returning *`,
      [check.id, status, summary, JSON.stringify(results), creditsUsed, error ?? (status === 'failed' ? 'Every page of the check failed' : null)],
    );
    if (!done) return;
    for (let i = 0; i < pages.length; i += PAGE_BATCH) {
      await tx.query(
        `insert into monitor_pages (check_id, ordinal, id, target_id, url, status, previous_scrape_id, current_scrape_id, status_code, error, diff, snapshot, metadata)
         select $1, x.ordinal, x.id, x.target_id, x.url, x.status, x.previous_scrape_id, x.current_scrape_id, x.status_code, x.error, x.diff, x.snapshot, x.metadata
         from jsonb_to_recordset($2::jsonb) as x(ordinal int, id text, target_id text, url text, status text, previous_scrape_id text, current_scrape_id text,
           status_code int, error text, diff jsonb, snapshot jsonb, metadata jsonb)`,
        [check.id, JSON.stringify(pages.slice(i, i + PAGE_BATCH))],
      );
    }
    await tx.query(
      `update monitors set current_check_id = case when current_check_id = $2 then null else current_check_id end, last_check_summary = $3, updated_at = now() where id = $1`,
      [m.id, check.id, summary],
    );
    const now = new Date();
    for (const p of pages) {
      if (p.status === 'same' || p.status === 'error') continue;
      const page = JSON.stringify({ ...pageView({ ...p, created_at: now }), monitorId: m.id, checkId: check.id });
      if (await recordEvent(tx, webhook, { type: 'monitor.page', jobId: check.id, teamId: m.team_id, success: true, documents: [page] })) events++;
    }
    const body = JSON.stringify(checkView(done));
    if (await recordEvent(tx, webhook, { type: 'monitor.check.completed', jobId: check.id, teamId: m.team_id, success: status !== 'failed', documents: [body] })) events++;
  });
  if (events > 0) kickJob(webhookDeps(services), check.id);
}
