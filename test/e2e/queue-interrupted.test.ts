/**
 * A job whose run kills its process (issue 15 item 1: a headers body that locked the server was
 * resumed on every restart) runs at most twice: the second interruption fails it with
 * JOB_INTERRUPTED instead of replaying it forever. Real processes are killed mid-job, for both queue
 * drivers (in-process over Postgres; BullMQ over Redis, through its stalled-job limit). A clean
 * shutdown is not counted as an interruption.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { createTestDatabaseConfig, openTestDatabase, type TestDatabaseConfig } from '../helpers/db.ts';
import { silentLogger } from '../../core/log.ts';
import { createMemoryQueue } from '../../core/queue/memory.ts';

const CHILD = `${import.meta.dir}/queue-crash-child.ts`;
const REDIS_URL = 'redis://127.0.0.1:6379';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c().catch(() => {});
}, 60_000);

/** Runs the child once; returns its exit code and output. */
async function runChild(args: string[]): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(['bun', CHILD, ...args], { stdout: 'pipe', stderr: 'pipe' });
  const timer = setTimeout(() => proc.kill(), 90_000);
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  clearTimeout(timer);
  return { code, out: out.trim() };
}

describe('a job that kills its process', () => {
  for (const kind of ['memory', 'bullmq'] as const) {
    test(`${kind}: runs twice, then fails with JOB_INTERRUPTED`, async () => {
      let db: TestDatabaseConfig | undefined;
      if (kind === 'memory') {
        db = await createTestDatabaseConfig('postgres', { migrated: true });
        cleanups.push(db.cleanup);
      }
      const args = [kind, db?.config.databaseUrl ?? 'postgres://unused', REDIS_URL, `trawl-crash-${crypto.randomUUID().slice(0, 8)}`];
      const first = await runChild(args);
      expect(first).toEqual({ code: 3, out: 'RAN' });
      const second = await runChild(args);
      expect(second).toEqual({ code: 3, out: 'RAN' });
      const third = await runChild(args);
      expect(third.code).toBe(0);
      expect(third.out).toStartWith('FAILED JOB_INTERRUPTED');
      expect(third.out).toContain('not run again');
    }, 300_000);
  }

  test('a clean shutdown is not counted: the job runs again after it', async () => {
    const t = await openTestDatabase('postgres');
    cleanups.push(() => t.close());
    const q1 = await createMemoryQueue(t.db, silentLogger, { pollMs: 200 });
    await q1.add('slow', 'job', {}, { id: 'slow-1' });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    await q1.process('slow', (_job, signal) => {
      started();
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    }, { concurrency: 1 });
    await running;
    await q1.close(100);
    for (let i = 0; i < 2; i++) {
      const q = await createMemoryQueue(t.db, silentLogger, { pollMs: 200 });
      await q.close(100);
    }
    const [row] = await t.db.query<{ status: string; interruptions: number }>("SELECT status, interruptions FROM queue_jobs WHERE id = 'slow-1'");
    expect(row).toEqual({ status: 'waiting', interruptions: 0 });
    const q2 = await createMemoryQueue(t.db, silentLogger, { pollMs: 200 });
    await q2.process('slow', async () => 'done', { concurrency: 1 });
    expect(await q2.waitFor('slow-1', 30_000)).toBe('done');
    await q2.close();
  }, 120_000);
});
