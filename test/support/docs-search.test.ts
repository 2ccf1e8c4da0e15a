/**
 * Issue 21 item 2: docs-search answers operator questions from Trawl's embedded documentation and
 * the app's OpenAPI document, with no model configured: quoted passages, evidence, zero usage. At
 * least 8 of 10 representative questions have the right section in the top 3 evidence entries.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';

setDefaultTimeout(60_000);

let trawl: AccountsTrawl;
let auth: Record<string, string>;

beforeAll(async () => {
  trawl = await startAccountsTrawl();
  auth = trawl.auth((await trawl.key({ endpoints: ['scrape'] })).key);
});
afterAll(async () => trawl?.stop());

/** Question → the sections (pathOrUrl) that answer it. */
const QUESTIONS: [string, string[]][] = [
  ['How do I scale out Trawl to several machines?', ['docs/scaling.md#scaling-out', 'README.md#one-binary-several-modes']],
  ['How do I set an upstream proxy for scrapes?', ['README.md#configuration']],
  ['How can I restrict an API key to some formats or endpoints?', ['README.md#teams-and-keys']],
  ['How do I configure a language model?', ['docs/models.md#configuring-a-language-model']],
  ['How do I allow scraping private targets on my LAN?', ['README.md#configuration']],
  ['How do I change the port Trawl listens on?', ['README.md#configuration']],
  ['Which search providers can I configure?', ['README.md#configuration']],
  ['Where do I find the webhooks secret to verify signatures?', ['README.md#team-isolation']],
  ['How does zero data retention work?', ['README.md#protection-audit-retention']],
  ['What does the error code SCRAPE_LOCKDOWN_CACHE_MISS mean?', ['docs/errors.md#error-codes']],
];

const ask = (question: string, headers = auth) => trawl.post('/v2/support/docs-search', { question }, headers);

describe('POST /v2/support/docs-search', () => {
  test('at least 8 of 10 operator questions have the right section in the top 3 evidence entries', async () => {
    let right = 0;
    for (const [question, expected] of QUESTIONS) {
      const res = await ask(question);
      expect(res.status).toBe(200);
      const body = res.body as { evidence: { pathOrUrl: string }[] };
      if (body.evidence.slice(0, 3).some((e) => expected.includes(e.pathOrUrl))) right++;
    }
    expect(right).toBeGreaterThanOrEqual(8);
  });

  test('without a model: the answer quotes the best passages, usage is 0, evidence has reasons', async () => {
    const res = await ask('How do I change the port?');
    const body = res.body as Record<string, any>;
    expect(typeof body.requestId).toBe('string');
    expect(body.answer).toContain('> ');
    expect(body.answer).toContain('`PORT`');
    expect(body.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(body.evidence[0].reason).toContain('port');
    expect(Number.isInteger(body.durationMs)).toBe(true);
  });

  test('the OpenAPI operations generated from the models are searched', async () => {
    const body = (await ask('credit usage historical by API key')).body as { evidence: { pathOrUrl: string }[] };
    expect(body.evidence.map((e) => e.pathOrUrl)).toContain('/docs/json#GET /v2/team/credit-usage/historical');
  });

  test('bad input: empty and 8001-character questions are 400 naming the field; no key is 401', async () => {
    for (const question of ['', 'x'.repeat(8001)]) {
      const res = await ask(question);
      expect(res.status).toBe(400);
      expect(res.text).toContain('question');
    }
    expect((await ask('x'.repeat(8000))).status).toBe(200);
    expect((await ask('port', {})).status).toBe(401);
  });
});
