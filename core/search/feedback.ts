/**
 * Feedback on jobs (compat.md §11.3): `POST /v2/search/{jobId}/feedback` and the generic
 * `POST /v2/feedback`. One submission counts per job (table `search_feedback`, unique job id); the
 * first one on a search job refunds 1 credit within the team's daily cap (core/credits/ledger.ts),
 * never more than the search cost. Repeats answer `alreadySubmitted: true` and refund nothing.
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { isUuid, newId } from '../ids.ts';
import { refundSearchFeedback } from '../credits/ledger.ts';

export type FeedbackEndpoint = 'search' | 'scrape' | 'parse' | 'map';

export interface FeedbackResult {
  success: true;
  feedbackId: string;
  creditsRefunded: number;
  alreadySubmitted?: boolean;
  dailyCapReached?: boolean;
  creditsRefundedToday?: number;
  dailyRefundCap?: number;
  warning?: string;
}

function notFound(): TrawlError {
  return new TrawlError('JOB_NOT_FOUND', 'Job not found');
}

/** The team and search cost of a job of `endpoint`, or undefined when there is none. */
async function findJob(services: Services, endpoint: FeedbackEndpoint, jobId: string): Promise<{ teamId: string; credits: number } | undefined> {
  const rows = await services.db.query<{ team_id: string; credits_used: number }>(
    'SELECT team_id, credits_used FROM jobs WHERE id = $1 AND kind = $2',
    [jobId, endpoint],
  );
  if (rows[0]) return { teamId: rows[0].team_id, credits: Number(rows[0].credits_used) };
  if (endpoint === 'scrape') {
    const docs = await services.db.query<{ team_id: string }>('SELECT team_id FROM documents WHERE id = $1', [jobId]);
    if (docs[0]) return { teamId: docs[0].team_id, credits: 0 };
  }
  return undefined;
}

/**
 * Records feedback on a job.
 * @param body the feedback fields (rating, valuableSources, missingContent, querySuggestions, ...)
 * @throws TrawlError JOB_NOT_FOUND (404) for an unknown id or another team's job
 */
export async function submitFeedback(
  services: Services,
  caller: { teamId: string; keyId?: string },
  endpoint: FeedbackEndpoint,
  jobId: string,
  body: Record<string, unknown>,
): Promise<FeedbackResult> {
  if (!isUuid(jobId)) throw notFound();
  const id = jobId.toLowerCase();
  const job = await findJob(services, endpoint, id);
  if (!job || job.teamId !== caller.teamId) throw notFound();
  const { origin: _o, integration: _i, ...stored } = body;
  const feedbackId = newId();
  const inserted = await services.db.query<{ id: string }>(
    `INSERT INTO search_feedback (id, job_id, team_id, endpoint, rating, body) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (job_id) DO NOTHING RETURNING id`,
    [feedbackId, id, caller.teamId, endpoint, String(body.rating), stored],
  );
  if (inserted.length === 0) {
    const prior = await services.db.query<{ id: string }>('SELECT id FROM search_feedback WHERE job_id = $1', [id]);
    return { success: true, feedbackId: prior[0]?.id ?? feedbackId, creditsRefunded: 0, alreadySubmitted: true };
  }
  if (endpoint !== 'search') return { success: true, feedbackId, creditsRefunded: 0 };
  const cap = services.config.accounts.feedbackDailyRefundCap;
  if (job.credits < 1) {
    return { success: true, feedbackId, creditsRefunded: 0, warning: 'This search cost no credits, so there is nothing to refund.' };
  }
  const refund = await refundSearchFeedback(services.db, { teamId: caller.teamId, apiKeyId: caller.keyId, searchJobId: id, dailyCap: cap });
  if (refund.creditsRefunded > 0) {
    await services.db.query('UPDATE search_feedback SET credits_refunded = $2 WHERE id = $1', [feedbackId, refund.creditsRefunded]);
  }
  const out: FeedbackResult = {
    success: true,
    feedbackId,
    creditsRefunded: refund.creditsRefunded,
    creditsRefundedToday: refund.creditsRefundedToday,
    dailyRefundCap: refund.dailyRefundCap,
  };
  if (refund.dailyCapReached) {
    out.dailyCapReached = true;
    out.warning = `Feedback recorded; no credit refunded: the team reached its daily refund cap of ${cap}.`;
  }
  return out;
}
