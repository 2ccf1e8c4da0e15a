/**
 * The embedded default (`trawl serve`: PGlite, in-process queue, the scheduler in the same process)
 * runs a monitor on its schedule (issue 20 scope 3 "on the embedded database alike"): with a clock at
 * 60× real time, a `* * * * *` monitor gets one check per slot, consecutive, each scraping its page.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';

setDefaultTimeout(180_000);
let trawl: TestTrawl;
let site: FixtureSite;

beforeAll(async () => {
  site = serveFixtures({ '/': '<html><head><title>Quay</title></head><body><p>Berth 4.</p></body></html>' });
  const start = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  trawl = await startTrawl({ TRAWL_AUTH: 'off', TRAWL_SCHEDULER_CLOCK: `${start}@60`, TRAWL_SCHEDULER_TICK_MS: '200' });
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

test('scheduled checks run once per slot on PGlite', async () => {
  const created = await trawl.post('/v2/monitor', { name: 'quay', schedule: { cron: '* * * * *' }, targets: [{ type: 'scrape', urls: [site.url('/')] }] });
  expect(created.status).toBe(200);
  const id = created.body.data.id;
  let checks: any[] = [];
  for (let i = 0; i < 1200; i++) {
    checks = (await trawl.get(`/v2/monitor/${id}/checks`)).body.data;
    if (checks.filter((c) => c.status === 'completed').length >= 3) break;
    await Bun.sleep(100);
  }
  const scheduled = checks.filter((c) => c.trigger === 'scheduled').reverse();
  const slots = scheduled.map((c) => Date.parse(c.scheduledFor));
  expect(scheduled.filter((c) => c.status === 'completed').length).toBeGreaterThanOrEqual(3);
  for (let i = 1; i < slots.length; i++) expect(slots[i] - slots[i - 1]).toBe(60_000);
  for (const c of scheduled) expect(['queued', 'running', 'completed', 'skipped_overlap']).toContain(c.status);
  const first = scheduled.find((c) => c.status === 'completed');
  const detail = (await trawl.get(`/v2/monitor/${id}/checks/${first.id}`)).body.data;
  expect(detail.pages.map((p: any) => p.status)).toEqual(['new']);
});
