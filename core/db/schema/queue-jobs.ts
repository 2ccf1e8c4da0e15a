/**
 * Jobs of the in-process queue driver (core/queue/memory.ts). Rows persist so that jobs not finished
 * when the process stopped run again on the next start. Not used with the BullMQ driver.
 */
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { SerializedError } from '../../errors.ts';

export const QUEUE_JOB_STATUSES = ['waiting', 'active', 'completed', 'failed'] as const;
export type QueueJobStatus = (typeof QUEUE_JOB_STATUSES)[number];

export const queueJobs = pgTable(
  'queue_jobs',
  {
    id: text('id').primaryKey(),
    queue: text('queue').notNull(),
    name: text('name').notNull(),
    data: jsonb('data'),
    status: text('status', { enum: QUEUE_JOB_STATUSES }).notNull().default('waiting'),
    /** Lower runs first. */
    priority: integer('priority').notNull().default(0),
    /** Attempts started so far. */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(1),
    /** Times the process stopped while the job was active (core/queue/memory-store.ts resumeInterrupted). */
    interruptions: integer('interruptions').notNull().default(0),
    /** Base delay before a retry, ms; doubled each further attempt. */
    backoffMs: integer('backoff_ms').notNull().default(0),
    /** Earliest time the job may start (delays and retry backoff). */
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    result: jsonb('result'),
    error: jsonb('error').$type<SerializedError>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('queue_jobs_queue_status_run_at_idx').on(t.queue, t.status, t.runAt)],
);

export type QueueJobRow = typeof queueJobs.$inferSelect;
