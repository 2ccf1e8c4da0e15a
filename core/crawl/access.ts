/**
 * Reading a crawl or batch job on behalf of a caller (compat.md §1.1): unknown or malformed id and a
 * job of another kind -> 404 "Job not found"; another team's job -> 403 "Forbidden"; past its 24 h
 * retention -> 404 "Job expired".
 */
import type { Queryable } from '../db/client.ts';
import { TrawlError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { getJob, type JobKind, type JobView } from '../store/crawls.ts';

/**
 * @throws TrawlError JOB_NOT_FOUND, FORBIDDEN, JOB_EXPIRED
 */
export async function jobForTeam(db: Queryable, id: string, teamId: string, kind: JobKind): Promise<JobView> {
  if (!isUuid(id)) throw new TrawlError('JOB_NOT_FOUND', 'Job not found');
  const job = await getJob(db, id.toLowerCase());
  if (!job || job.kind !== kind) throw new TrawlError('JOB_NOT_FOUND', 'Job not found');
  if (job.teamId !== teamId) throw new TrawlError('FORBIDDEN', 'Forbidden');
  if (job.expiresAt && job.expiresAt.getTime() < Date.now()) throw new TrawlError('JOB_EXPIRED', 'Job expired');
  return job;
}
