/**
 * Model calls are counted per team (issue 18): a format's `ctx.model` (a test-only format asking the
 * model during a scrape) and a crawl prompt record their tokens, purpose and model for the caller's
 * team; `GET /v2/team/token-usage` and its historical variant (compat.md §16) show them, per key with
 * `byApiKey`. Keyless and bad-key requests with a prompt answer 401 and make no model call. A model
 * failing inside a format is the scrape's 502, never a 500.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { BUILTIN_PLUGINS, Registry } from '../../core/registry.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';

setDefaultTimeout(120_000);

let fake: FakeChat;
let trawl: AccountsTrawl;
let site: FixtureSite;
const registry = new Registry({ ...BUILTIN_PLUGINS, format: { ...BUILTIN_PLUGINS.format, modelNote: () => import('../fixtures/formats/model-note.ts') } });

beforeAll(async () => {
  fake = startFakeChat();
  site = serveFixtures({ '/tea': '<html><head><title>Tea</title></head><body><main><h1>Green tea</h1><p>Steep for two minutes at 80 degrees.</p></main></body></html>' });
  trawl = await startAccountsTrawl(
    { OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'big-model', TRAWL_MODEL_SMALL: 'small-model', TRAWL_ALLOW_PRIVATE_TARGETS: 'true', TRAWL_MODEL_MAX_RETRIES: '0' },
    registry,
  );
});
afterAll(async () => {
  await trawl?.stop();
  fake?.stop();
  site?.stop();
});

/** Tokens the fake counted while `run` ran. */
async function tokensOf(run: () => Promise<void>): Promise<number> {
  const before = fake.promptTokens + fake.completionTokens;
  await run();
  return fake.promptTokens + fake.completionTokens - before;
}

const used = async (key: string) => {
  const res = await trawl.get('/v2/team/token-usage', trawl.auth(key));
  expect(res.status).toBe(200);
  return res.body.data.planTokens - res.body.data.remainingTokens;
};

describe('token usage per team', () => {
  test('keyless and bad-key prompts: 401, no model call', async () => {
    const preview = { url: `${site.origin}/tea`, prompt: 'only tea pages' };
    expect((await trawl.post('/v2/crawl/params-preview', preview)).status).toBe(401);
    expect((await trawl.post('/v2/crawl/params-preview', preview, trawl.auth('fc-00000000000000000000000000000000'))).status).toBe(401);
    expect(fake.requests.length).toBe(0);
  });

  test('a format and a prompt count their tokens for the team that asked, by key and month', async () => {
    const a1 = await trawl.key();
    const a2 = await trawl.key({ team: a1.team });
    const b = await trawl.key();
    expect(await used(a1.key)).toBe(0);

    const scrapeTokens = await tokensOf(async () => {
      const res = await trawl.post('/v2/scrape', { url: `${site.origin}/tea`, formats: ['modelNote'] }, trawl.auth(a1.key));
      expect(res.status).toBe(200);
      expect(res.body.data.modelNote).toBe('x'); // the fake's answer for {note: string}
    });
    expect(fake.requests.at(-1)!.body.model).toBe('big-model');
    expect(fake.requests.at(-1)!.body.messages.at(-1).content).toContain('Green tea');

    const previewTokens = await tokensOf(async () => {
      const res = await trawl.post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: 'only tea pages' }, trawl.auth(a2.key));
      expect(res.status).toBe(200);
    });
    const otherTeam = await tokensOf(async () => {
      expect((await trawl.post('/v2/crawl/params-preview', { url: `${site.origin}/`, prompt: 'all' }, trawl.auth(b.key))).status).toBe(200);
    });
    expect(scrapeTokens).toBeGreaterThan(0);
    expect(fake.violations).toEqual([]);

    expect(await used(a1.key)).toBe(scrapeTokens + previewTokens);
    expect(await used(a2.key)).toBe(scrapeTokens + previewTokens);
    expect(await used(b.key)).toBe(otherTeam);

    const history = await trawl.get('/v2/team/token-usage/historical', trawl.auth(a1.key));
    expect(history.status).toBe(200);
    expect(history.body.periods[0]).toMatchObject({ apiKey: null, totalTokens: scrapeTokens + previewTokens, tokensUsed: scrapeTokens + previewTokens });
    const byKey = await trawl.get('/v2/team/token-usage/historical?byApiKey=true', trawl.auth(a1.key));
    const current = byKey.body.periods.filter((p: any) => p.startDate === history.body.periods[0].startDate);
    expect(current.map((p: any) => [p.apiKey, p.tokensUsed]).sort()).toEqual([[`${a1.key.slice(0, 8)}...`, scrapeTokens], [`${a2.key.slice(0, 8)}...`, previewTokens]].sort() as any);

    const rows = await trawl.running.services.db.query<{ purpose: string; model: string; job_id: string | null }>(
      'SELECT purpose, model, job_id FROM model_usage WHERE team_id = $1 ORDER BY created_at', [a1.team],
    );
    expect(rows.map((r) => [r.purpose, r.model])).toEqual([['format:modelNote', 'big-model'], ['crawl:prompt', 'small-model']]);
    expect(rows[0]!.job_id).toBeTruthy();
  });

  test('a model failing inside a format: the scrape answers 502, and the failed call costs no tokens', async () => {
    const k = await trawl.key();
    fake.script({ status: 500, message: 'model crashed' });
    const res = await trawl.post('/v2/scrape', { url: `${site.origin}/tea`, formats: ['modelNote'], maxAge: 0 }, trawl.auth(k.key));
    expect(res.status).toBe(502);
    expect(res.body.success).toBe(false);
    expect(await used(k.key)).toBe(0);
  });
});
