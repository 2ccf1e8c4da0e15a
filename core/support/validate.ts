/**
 * Validation of a support fix (issue 21): the failed request is sent again with `fixParameters`
 * merged in, as the caller (same key, so admitted, rate-limited and charged like any request),
 * bounded in time (the ask deadline minus a margin, at most `VALIDATION_MAX_MS`) and in credits
 * (crawls and batches re-run at most `VALIDATION_PAGES` pages). The report says what was sent and
 * what came back.
 */
import type { SupportDiagnosis, SupportFailure } from '../plugin.ts';
import { EMPTY_CHARS } from './documents.ts';

/** Sends one API request as the caller, in-process; `body` is JSON. */
export type Replay = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** The `validation` object of the ask response. */
export interface Validation {
  tested: boolean;
  /**
   * `success`, `failed`, `inconclusive` (the budget ran out), `needs-operator` (the re-run of a fix
   * outside the request failed the same way: the change `evidence` names is not made yet), or
   * `not tested`.
   */
  result: string;
  evidence: string;
}

/** Longest validation, ms. */
export const VALIDATION_MAX_MS = 45_000;
/** Most pages a validation crawl or batch may scrape (credits it may spend). */
export const VALIDATION_PAGES = 3;
/** Time kept for answering after the validation, ms. */
const MARGIN_MS = 3_000;

const PATHS = { scrape: '/v2/scrape', crawl: '/v2/crawl', batch_scrape: '/v2/batch/scrape', map: '/v2/map' } as const;
/** Characters of a document's outputs, its metadata and its warning aside (a warning is no content). */
function contentChars(doc: Record<string, unknown> | undefined): number {
  let n = 0;
  for (const [k, v] of Object.entries(doc ?? {})) if (k !== 'metadata' && k !== 'warning' && v != null) n += typeof v === 'string' ? v.length : JSON.stringify(v).length;
  return n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function settle(replay: Replay, path: string, id: string, until: number): Promise<{ status: number; body: any } | undefined> {
  while (Date.now() < until) {
    const res = await replay('GET', `${path}/${id}`);
    if (res.status !== 200 || ['completed', 'failed', 'cancelled'].includes(res.body?.status)) return res;
    await sleep(250);
  }
  return undefined;
}

/**
 * Re-runs `failure.request` with `fix` merged in. A job kind (crawl, batch) is polled until it ends.
 * @param deadline epoch ms by which the ask must answer
 * @param how the diagnosis' `operatorAction` (a same-status failure is `needs-operator`) and `waitMs`
 *   (waited first when it fits the budget, else `not tested`)
 */
export async function validateFix(
  replay: Replay,
  failure: SupportFailure,
  fix: Record<string, unknown>,
  deadline: number,
  how: Pick<SupportDiagnosis, 'operatorAction' | 'waitMs'> = {},
): Promise<Validation> {
  const { operatorAction, waitMs = 0 } = how;
  const until = Math.min(deadline - MARGIN_MS, Date.now() + VALIDATION_MAX_MS);
  if (waitMs > 0) {
    const s = Math.ceil(waitMs / 1000);
    if (waitMs > until - Date.now() - 1_000) return { tested: false, result: 'not tested', evidence: `the wait (${s} s) is longer than the validation budget; ask again in ${s} s to re-test` };
    await sleep(waitMs);
  }
  const waited = waitMs > 0 ? `after waiting ${Math.ceil(waitMs / 1000)} s, ` : '';
  const path = PATHS[failure.kind];
  const body: Record<string, unknown> = { ...failure.request, ...fix };
  let bounded = '';
  if (failure.kind === 'crawl' && (typeof body.limit !== 'number' || body.limit > VALIDATION_PAGES)) {
    body.limit = VALIDATION_PAGES;
    bounded = ` (limit ${VALIDATION_PAGES} for this test run)`;
  }
  if (failure.kind === 'scrape' && typeof body.timeout === 'number' && body.timeout > until - Date.now()) {
    bounded = ` (it may be cut off by the ${Math.round((until - Date.now()) / 1000)} s validation budget)`;
  }
  const sent = Object.keys(fix).length === 0
    ? `${waited}POST ${path} with the original request unchanged${bounded}`
    : `${waited}POST ${path} with ${JSON.stringify(fix)} merged into the original request${bounded}`;
  if (until - Date.now() < 1_000) return { tested: false, result: 'not tested', evidence: 'no time was left for a re-run' };
  const first = await Promise.race([replay('POST', path, body), sleep(until - Date.now()).then(() => undefined)]);
  if (!first) return { tested: true, result: 'inconclusive', evidence: `${sent}: no answer within the validation budget` };
  if (first.status !== 200) {
    const got = `${sent}: ${first.status} ${first.body?.code ?? ''} ${first.body?.error ?? ''}`.trim();
    if (operatorAction && first.status === failure.error?.status) {
      return { tested: true, result: 'needs-operator', evidence: `${got}. A re-run cannot succeed until ${operatorAction}; ask again after that to re-test.` };
    }
    return { tested: true, result: 'failed', evidence: got };
  }
  if (failure.kind === 'scrape') {
    // An empty-content scrape is fixed only when the re-run has content (outputs but the metadata).
    // A turned-away scrape is fixed only when the target answers below 400 in the re-run.
    const chars = contentChars(first.body?.data);
    const target = Number(first.body?.data?.metadata?.statusCode ?? 200);
    const ok = !failure.document || (chars >= EMPTY_CHARS && target < 400);
    return { tested: true, result: ok ? 'success' : 'failed', evidence: `${sent}: 200, target status ${target}, content ${chars} characters` };
  }
  if (failure.kind === 'map') return { tested: true, result: 'success', evidence: `${sent}: 200, ${first.body?.links?.length ?? 0} links` };
  const id = first.body?.id;
  const end = typeof id === 'string' ? await settle(replay, path, id, until) : undefined;
  if (!end) return { tested: true, result: 'inconclusive', evidence: `${sent}: job ${id} did not finish within the validation budget` };
  const pages = Array.isArray(end.body?.data) ? end.body.data.length : 0;
  // A crawl that was kept out by robots.txt is fixed only when the re-run is not.
  const robots = failure.robotsBlocked?.length ? ((await replay('GET', `${path}/${id}/errors`)).body?.robotsBlocked ?? []).length : 0;
  const ok = end.body?.status === 'completed' && pages > 0 && robots === 0;
  return { tested: true, result: ok ? 'success' : 'failed', evidence: `${sent}: job ${id} ${end.body?.status}, ${pages} page(s)${failure.robotsBlocked?.length ? `, ${robots} URL(s) blocked by robots.txt` : ''}` };
}
