/**
 * `POST /v2/support/ask` (issue 21; interface.md "Support records"): finds the caller team's failed
 * request or job the question is about (a job id or URL named in the question, a failure given in
 * `context`, or else the most recent failures), asks the `support` plugins for its failure class
 * and fix, and validates the fix by re-running the request with it, as the caller, bounded in time
 * and credits (core/support/validate.ts). Only the caller team's rows are ever read; zero data
 * retention work is never stored, so never read. No Elysia here.
 */
import type { Queryable } from '../db/client.ts';
import type { PluginContext, SupportDiagnosis, SupportFailure, SupportPlugin } from '../plugin.ts';
import { TrawlError } from '../errors.ts';
import { keptFailures } from './failures.ts';
import { failedJobs } from './jobs.ts';
import { emptyScrapes } from './documents.ts';
import { validateFix, type Replay, type Validation } from './validate.ts';

/** The ask response body minus `requestId` and `durationMs`. */
export interface AskAnswer {
  answer: string;
  confidence: 'high' | 'medium' | 'low';
  fixParameters: Record<string, unknown>;
  validation: Validation;
  feedback: null;
}

export interface AskDeps {
  db: Queryable;
  plugins: readonly SupportPlugin[];
  ctx: PluginContext;
  /** Re-sends a request as the caller; absent: no validation. */
  replay?: Replay;
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>`)\]]+/i;

/** A failure described by the caller in `context` ({ request, error, endpoint }), not verified by Trawl. */
function fromContext(context: Record<string, unknown> | undefined): SupportFailure | undefined {
  const request = context?.request;
  const error = context?.error as Record<string, unknown> | undefined;
  if (!request || typeof request !== 'object' || Array.isArray(request) || !error || typeof error !== 'object') return undefined;
  const kinds = ['scrape', 'crawl', 'batch_scrape', 'map'] as const;
  const kind = kinds.find((k) => k === context?.endpoint) ?? 'scrape';
  const r = request as Record<string, unknown>;
  return {
    id: 'context',
    kind,
    url: typeof r.url === 'string' ? r.url : undefined,
    request: r,
    error: { code: String(error.code ?? ''), message: String(error.error ?? error.message ?? ''), status: Number(error.status ?? 0), headers: error.headers as Record<string, string> | undefined },
  };
}

/**
 * The failures the question is about, newest first.
 * @throws TrawlError JOB_NOT_FOUND (404) when the question names a job id the team has no failure for
 */
export async function findFailures(db: Queryable, teamId: string, question: string, context?: Record<string, unknown>): Promise<SupportFailure[]> {
  const given = fromContext(context);
  if (given) return [given];
  const id = (typeof context?.jobId === 'string' ? context.jobId : UUID.exec(question)?.[0])?.toLowerCase();
  if (id) {
    if (!UUID.test(id)) throw new TrawlError('JOB_NOT_FOUND', `Job ${id} not found: job ids are UUIDs.`);
    const found = [...(await keptFailures(db, teamId, { id })), ...(await failedJobs(db, teamId, { id })), ...(await emptyScrapes(db, teamId, { id }))];
    if (found.length === 0) throw new TrawlError('JOB_NOT_FOUND', `Job ${id} not found among this team's requests and jobs of the last 24 hours.`);
    return found;
  }
  const url = URL_IN_TEXT.exec(question)?.[0]?.replace(/[.,;:!?]+$/, '');
  const kept = await keptFailures(db, teamId, url ? { url } : {});
  const jobs = await failedJobs(db, teamId, url ? { url } : {});
  const empty = await emptyScrapes(db, teamId, url ? { url } : {});
  return [...kept, ...jobs, ...empty].sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
}

async function diagnose(plugins: readonly SupportPlugin[], f: SupportFailure, ctx: PluginContext): Promise<SupportDiagnosis | undefined> {
  for (const p of plugins) {
    const d = await Promise.resolve(p.diagnose(f, ctx)).catch((err: unknown) => {
      ctx.log.warn({ err, plugin: p.name }, 'support plugin failed; skipped');
      return undefined;
    });
    if (d) return d;
  }
  return undefined;
}

const lower = { high: 'medium', medium: 'low', low: 'low' } as const;

/**
 * Answers one question. `deadline`: epoch ms by which the answer must be ready (validation stops
 * earlier, leaving a margin).
 * @throws TrawlError JOB_NOT_FOUND (404) for a named job id the team does not have
 */
export async function askSupport(deps: AskDeps, teamId: string, question: string, context?: Record<string, unknown>, deadline = Date.now() + 55_000): Promise<AskAnswer> {
  const failures = await findFailures(deps.db, teamId, question, context);
  for (const failure of failures) {
    const d = await diagnose(deps.plugins, failure, deps.ctx);
    if (!d) continue;
    const validation = d.validate && deps.replay
      ? await validateFix(deps.replay, failure, d.fixParameters, deadline, d)
      : { tested: false, result: 'not tested', evidence: d.validate ? 'no re-run is possible here' : 'no request parameter fixes this class; re-running would fail the same way' };
    const what = failure.id === 'context' ? 'The request in context' : `${failure.kind} ${failure.id}${failure.url ? ` (${failure.url})` : ''}`;
    const code = failure.error
      ? `${failure.error.code || failure.error.status}: ${failure.error.message}`
      : failure.document
        ? `almost no content (status ${failure.document.statusCode}, ${failure.document.contentChars} characters of content)`
        : `status ${failure.status}, ${failure.completed ?? 0} pages`;
    return {
      answer: `${what} ${failure.error ? 'failed with' : 'ended with'} ${code}\nClass: ${d.class}. ${d.answer}`,
      // A failure only described by the caller is not Trawl's own record: one level less sure.
      confidence: failure.id === 'context' ? lower[d.confidence] : d.confidence,
      fixParameters: d.fixParameters,
      validation,
      feedback: null,
    };
  }
  const none = failures.length === 0;
  return {
    answer: none
      ? 'No failed request or job of this team in the last 24 hours matches the question. Name a job id or the URL, or pass the failed request and its error in `context` ({ request, error, endpoint }); zero data retention requests are never stored.'
      : `Found ${failures.length} failed request(s) (latest: ${failures[0]!.kind} ${failures[0]!.id}, ${failures[0]!.error?.code ?? failures[0]!.status}) but no support plugin recognises the failure class.`,
    confidence: 'low',
    fixParameters: {},
    validation: { tested: false, result: 'not tested', evidence: 'no failure class was established' },
    feedback: null,
  };
}
