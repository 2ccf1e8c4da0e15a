/**
 * Issue 15 item 9: interact sessions are limited per team and per keyless IP address under the
 * node-wide cap, so keyless callers cannot take every session of a node. Real Trawl (keys on,
 * `TRAWL_TRUST_PROXY` so X-Forwarded-For stands for distinct addresses) and real Chromium.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { loadConfig } from '../../core/config.ts';

setDefaultTimeout(120_000);

let site: FixtureSite;
let trawl: AccountsTrawl;

beforeAll(async () => {
  site = serveFixtures({ '/p': '<html><head><title>Pier</title></head><body><p>Pier notes.</p></body></html>' });
  trawl = await startAccountsTrawl({ TRAWL_INTERACT_MAX_SESSIONS: '6', TRAWL_INTERACT_MAX_SESSIONS_PER_TEAM: '2', TRAWL_TRUST_PROXY: 'true' });
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

/** Scrapes the page as the caller (`headers`: its key or its address) and returns the scrape id. */
async function scraped(headers: Record<string, string>, n: number): Promise<string> {
  const res = await trawl.post('/v2/scrape', { url: site.url(`/p?n=${n}`), maxAge: 0 }, headers);
  expect(res.status).toBe(200);
  return res.body.data.metadata.scrapeId;
}

const open = (id: string, headers: Record<string, string>) => trawl.post(`/v2/scrape/${id}/interact`, { code: 'console.log(1 + 1)' }, headers);

describe('interact session limits', () => {
  test('one keyless address holds one session, keyless callers together the team limit; teams keep theirs', async () => {
    const ip = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}` });
    const first = await open(await scraped(ip(1), 1), ip(1));
    expect(first.status).toBe(200);
    const again = await open(await scraped(ip(1), 2), ip(1));
    expect(again.status).toBe(429);
    expect(again.body.error).toContain('TRAWL_INTERACT_MAX_SESSIONS_PER_IP');
    expect((await open(await scraped(ip(2), 3), ip(2))).status).toBe(200);
    const third = await open(await scraped(ip(3), 4), ip(3));
    expect(third.status).toBe(429);
    expect(third.body.error).toContain('keyless calls together');

    const a = trawl.auth((await trawl.key()).key);
    expect((await open(await scraped(a, 5), a)).status).toBe(200);
    expect((await open(await scraped(a, 6), a)).status).toBe(200);
    const overTeam = await open(await scraped(a, 7), a);
    expect(overTeam.status).toBe(429);
    expect(overTeam.body.error).toContain('TRAWL_INTERACT_MAX_SESSIONS_PER_TEAM');

    // Another team still gets a session.
    const b = trawl.auth((await trawl.key()).key);
    expect((await open(await scraped(b, 8), b)).status).toBe(200);
  });

  test('defaults: half the node cap per team with keys, all of it with TRAWL_AUTH=off, one per keyless address', () => {
    expect(loadConfig({}).interact).toMatchObject({ maxSessions: 4, maxSessionsPerTeam: 2, maxSessionsPerIp: 1 });
    expect(loadConfig({ TRAWL_AUTH: 'off' }).interact.maxSessionsPerTeam).toBe(4);
  });
});
