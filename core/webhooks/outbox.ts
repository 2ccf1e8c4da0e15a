/**
 * The webhook outbox: an event is a row of `webhook_deliveries` written in the same transaction as the
 * state change it reports (a page done, a crawl finished), so events are never lost and their `seq`
 * follows the order of those changes. core/webhooks/deliver.ts sends them.
 * Payload (compat.md §17): `{success, type, id, webhookId, data, error?, metadata}`; `data` is `[]`
 * or `[<Document>]` with the document's stored bytes spliced in unchanged.
 */
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import { wantsEvent, type WebhookSpec } from './spec.ts';

export interface WebhookEvent {
  /** `crawl.page`, `batch_scrape.completed` ... */
  type: string;
  jobId: string;
  teamId: string;
  success: boolean;
  /** Serialized documents of the event (page events), each exactly as stored. */
  documents?: string[];
  error?: string;
}

/** Builds the payload text. `data` documents are inserted verbatim (byte stability, compat.md §3). */
export function payloadOf(event: WebhookEvent, webhookId: string, metadata: Record<string, unknown>): string {
  const head = JSON.stringify({ success: event.success, type: event.type, id: event.jobId, webhookId });
  const data = `[${(event.documents ?? []).join(',')}]`;
  const error = event.error !== undefined ? `,"error":${JSON.stringify(event.error)}` : '';
  return `${head.slice(0, -1)},"data":${data}${error},"metadata":${JSON.stringify(metadata)}}`;
}

/** An outbox row ready to insert: what `recordEvent` writes, for callers that insert it in SQL. */
export interface EventRow {
  id: string;
  event: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The outbox row of an event, or undefined when the job's webhook does not ask for it. */
export function eventRow(spec: WebhookSpec | undefined, event: WebhookEvent): EventRow | undefined {
  if (!spec || !wantsEvent(spec, event.type)) return undefined;
  const webhookId = newId();
  return { id: webhookId, event: event.type, url: spec.url, headers: spec.headers, body: payloadOf(event, webhookId, spec.metadata) };
}

/**
 * Records an event for delivery when the job's webhook asks for it.
 * @returns true when a delivery row was written
 */
export async function recordEvent(tx: Queryable, spec: WebhookSpec | undefined, event: WebhookEvent): Promise<boolean> {
  const row = eventRow(spec, event);
  if (!row) return false;
  await tx.query(
    `insert into webhook_deliveries (id, job_id, team_id, event, url, headers, body) values ($1, $2, $3, $4, $5, $6, $7)`,
    [row.id, event.jobId, event.teamId, row.event, row.url, row.headers, row.body],
  );
  return true;
}
