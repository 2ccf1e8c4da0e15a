/**
 * Webhook outbox and delivery (compat.md §17): payload shape with document bytes spliced in, event
 * filters, HMAC-SHA256 signatures in both headers verified with a timing-safe compare, per-job order,
 * retries with backoff recorded per attempt, and failures that never throw.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { silentLogger } from '../../core/log.ts';
import { newId } from '../../core/ids.ts';
import { payloadOf, recordEvent } from '../../core/webhooks/outbox.ts';
import { resolveWebhook, wantsEvent } from '../../core/webhooks/spec.ts';
import { signBody, verifySignature } from '../../core/webhooks/sign.ts';
import { UNGUARDED } from '../../core/net/target-policy.ts';
import { dispatchJob } from '../../core/webhooks/deliver.ts';

const SECRET = 'test-secret';

describe('spec and payload', () => {
  test('string or object; reserved headers dropped; events by subtype or full name', () => {
    const s = resolveWebhook({ url: 'http://h/x', headers: { 'X-Service-Signature': 'forged', 'X-Custom': '1' }, metadata: { a: 1 }, events: ['page', 'crawl.completed'] })!;
    expect(s.headers).toEqual({ 'X-Custom': '1' });
    expect(wantsEvent(s, 'crawl.page')).toBe(true);
    expect(wantsEvent(s, 'crawl.completed')).toBe(true);
    expect(wantsEvent(s, 'crawl.started')).toBe(false);
    expect(wantsEvent(s, 'crawl.cancelled')).toBe(false);
    expect(wantsEvent(resolveWebhook('http://h/x')!, 'crawl.cancelled')).toBe(true);
    expect(() => resolveWebhook('ftp://h/x')).toThrow();
  });

  test('payload keeps document bytes and field order', () => {
    const doc = '{"markdown":"a\\u00e9","metadata":{"scrapeId":"s1"}}';
    const body = payloadOf({ type: 'crawl.page', jobId: 'j', teamId: 't', success: true, documents: [doc] }, 'w1', { m: 1 });
    expect(body).toBe(`{"success":true,"type":"crawl.page","id":"j","webhookId":"w1","data":[${doc}],"metadata":{"m":1}}`);
    const failed = payloadOf({ type: 'crawl.failed', jobId: 'j', teamId: 't', success: false, error: 'boom' }, 'w2', {});
    expect(JSON.parse(failed)).toEqual({ success: false, type: 'crawl.failed', id: 'j', webhookId: 'w2', data: [], error: 'boom', metadata: {} });
  });

  test('signature verification is exact', () => {
    const sig = signBody('{"a":1}', SECRET);
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature('{"a":1}', sig, SECRET)).toBe(true);
    expect(verifySignature('{"a":2}', sig, SECRET)).toBe(false);
    expect(verifySignature('{"a":1}', sig, 'other')).toBe(false);
    expect(verifySignature('{"a":1}', undefined, SECRET)).toBe(false);
  });
});

describe('delivery', () => {
  let t: TestDatabase;
  const received: { body: string; service: string | null; firecrawl: string | null; custom: string | null }[] = [];
  let failNext = 0;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const body = await req.text();
      if (failNext > 0) {
        failNext--;
        return new Response('nope', { status: 503 });
      }
      received.push({ body, service: req.headers.get('x-service-signature'), firecrawl: req.headers.get('x-firecrawl-signature'), custom: req.headers.get('x-custom') });
      return new Response('ok');
    },
  });
  const url = `http://127.0.0.1:${server.port}/hook`;
  beforeAll(async () => {
    t = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    server.stop(true);
    await t.close();
  });
  const deps = () => ({ db: t.db, log: silentLogger, secretFor: async () => SECRET, targets: UNGUARDED });

  test('events of a job arrive in order, signed in both headers', async () => {
    const jobId = newId();
    const spec = resolveWebhook({ url, headers: { 'X-Custom': 'yes' }, metadata: { run: 7 } });
    await t.db.transaction(async (tx) => {
      await recordEvent(tx, spec, { type: 'crawl.started', jobId, teamId: 't', success: true });
      for (let i = 0; i < 5; i++) await recordEvent(tx, spec, { type: 'crawl.page', jobId, teamId: 't', success: true, documents: [`{"n":${i}}`] });
      await recordEvent(tx, spec, { type: 'crawl.completed', jobId, teamId: 't', success: true });
    });
    received.length = 0;
    await dispatchJob(deps(), jobId);
    expect(received.map((r) => JSON.parse(r.body).type)).toEqual(['crawl.started', ...Array(5).fill('crawl.page'), 'crawl.completed']);
    expect(received.map((r) => JSON.parse(r.body).data[0]?.n).slice(1, 6)).toEqual([0, 1, 2, 3, 4]);
    for (const r of received) {
      expect(verifySignature(r.body, r.service, SECRET)).toBe(true);
      expect(r.firecrawl).toBe(r.service);
      expect(r.custom).toBe('yes');
      expect(JSON.parse(r.body).metadata).toEqual({ run: 7 });
    }
    const rows = await t.db.query<{ status: string; attempts: number }>('select status, attempts from webhook_deliveries where job_id = $1', [jobId]);
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
  });

  test('a failing receiver is retried with backoff; attempts are recorded; the last failure marks it failed', async () => {
    const jobId = newId();
    await t.db.transaction((tx) => recordEvent(tx, resolveWebhook(url), { type: 'crawl.page', jobId, teamId: 't', success: true, documents: ['{}'] }));
    failNext = 1;
    received.length = 0;
    await dispatchJob(deps(), jobId, [60_000]);
    let [row] = await t.db.query<{ id: string; status: string; attempts: number; wait_s: number; last_status_code: number }>(
      `select id, status, attempts, last_status_code, extract(epoch from next_attempt_at - now())::float as wait_s from webhook_deliveries where job_id = $1`, [jobId]);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503 });
    expect(row.wait_s).toBeGreaterThan(50);
    await t.db.query('update webhook_deliveries set next_attempt_at = now() where job_id = $1', [jobId]);
    await dispatchJob(deps(), jobId, [60_000]);
    [row] = await t.db.query('select id, status, attempts from webhook_deliveries where job_id = $1', [jobId]);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2 });
    const attempts = await t.db.query('select attempt, status_code from webhook_attempts where delivery_id = $1 order by attempt', [row.id]);
    expect(attempts).toEqual([{ attempt: 1, status_code: 503 }, { attempt: 2, status_code: 200 }]);
    expect(received.length).toBe(1);
  });

  test('an unreachable receiver never throws and ends failed after the last retry', async () => {
    const jobId = newId();
    await t.db.transaction((tx) => recordEvent(tx, resolveWebhook('http://127.0.0.1:9/none'), { type: 'crawl.completed', jobId, teamId: 't', success: true }));
    await dispatchJob(deps(), jobId, []);
    const [row] = await t.db.query<{ status: string; last_error: string }>('select status, last_error from webhook_deliveries where job_id = $1', [jobId]);
    expect(row.status).toBe('failed');
    expect(row.last_error.length).toBeGreaterThan(0);
  });
});
