/**
 * `agent_steps` (migration 0018_agent, issue 19): the trace of an agent run, one row per step (a
 * model turn or a tool call). The run itself is a `jobs` row of kind `agent`.
 */
import { boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const agentSteps = pgTable(
  'agent_steps',
  {
    jobId: text('job_id').notNull(),
    /** 1-based, in the order the steps ran. */
    seq: integer('seq').notNull(),
    /** `model` (a model turn) or `tool` (a tool call). */
    kind: text('kind').notNull(),
    /** The tool called (`search`, `map`, `scrape`, `extract`); null for model turns. */
    tool: text('tool'),
    /** The tool's arguments; null under zero data retention. */
    input: jsonb('input'),
    /** One line on what the step found; null under zero data retention. */
    note: text('note'),
    ok: boolean('ok').notNull().default(true),
    credits: integer('credits').notNull().default(0),
    tokens: integer('tokens').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] })],
);
