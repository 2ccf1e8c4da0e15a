/**
 * Issue 15 item 3: the local search index is per team. A page team A scraped behind a login (a
 * browser profile, or a cookie in custom headers) is never indexed, so neither team B nor a keyless
 * caller (nor A itself) finds it; A's ordinary pages are found by A only; keyless searches see only
 * the teams the operator made public (TRAWL_SEARCH_PUBLIC_TEAMS). Real Trawl on Postgres, real
 * Chromium for the profile scrape.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { loadConfig } from '../../core/config.ts';
import { LOCAL_TEAM_ID, KEYLESS_TEAM_ID } from '../../core/auth/authenticate.ts';
import { searchableTeams } from '../../core/search/visibility.ts';
import { searchPages, upsertPages, type IndexedPage } from '../../core/search/local-index.ts';
import { parseQuery } from '../../core/search/operators.ts';

setDefaultTimeout(90_000);

const page = (title: string, text: string) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

let site: FixtureSite;
let trawl: AccountsTrawl;
let a: { key: string; team: string };
let b: { key: string; team: string };

beforeAll(async () => {
  site = serveFixtures({
    // What a logged-in member sees (the cookie comes from the profile or the headers).
    '/members': (req) => new Response(page('Members area', 'Your account balance zephyrquartz is private.'), { headers: { 'content-type': 'text/html', 'set-cookie': 'seen=1; Path=/' } }),
    '/inbox': page('Inbox', 'Message obsidianferry for the account holder only.'),
    '/public': page('Harbour notes', 'The marigoldlantern shines over the harbour every night.'),
  });
  trawl = await startAccountsTrawl();
  a = await trawl.key();
  b = await trawl.key();
  const scrape = async (body: Record<string, unknown>, key: string) => {
    const res = await trawl.post('/v2/scrape', body, trawl.auth(key));
    if (res.status !== 200) throw new Error(`scrape ${JSON.stringify(body)}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const members = await scrape({ url: site.url('/members'), profile: { name: 'login' } }, a.key);
  expect(members.markdown).toContain('zephyrquartz');
  await scrape({ url: site.url('/inbox'), headers: { Cookie: 'session=alice' } }, a.key);
  await scrape({ url: site.url('/public') }, a.key);
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

/** URLs of the web results of a search by `key` (keyless when undefined). */
async function found(query: string, key?: string): Promise<string[]> {
  const res = await trawl.post('/v2/search', { query }, key ? trawl.auth(key) : {});
  expect(res.status).toBe(200);
  return (res.body.data.web ?? []).map((r: { url: string }) => r.url);
}

describe('search across teams', () => {
  test('a page scraped with a profile is found by nobody: not team B, not keyless, not team A', async () => {
    expect(await found('zephyrquartz', b.key)).toEqual([]);
    expect(await found('zephyrquartz')).toEqual([]);
    expect(await found('zephyrquartz', a.key)).toEqual([]);
  });

  test('a page scraped with a cookie header is found by nobody', async () => {
    expect(await found('obsidianferry', b.key)).toEqual([]);
    expect(await found('obsidianferry')).toEqual([]);
    expect(await found('obsidianferry', a.key)).toEqual([]);
  });

  test("a team's ordinary pages are found by that team only", async () => {
    expect(await found('marigoldlantern', a.key)).toEqual([site.url('/public')]);
    expect(await found('marigoldlantern', b.key)).toEqual([]);
    expect(await found('marigoldlantern')).toEqual([]);
  });

  test("a profile scrape does not fill the shared cache: team B's plain scrape is fresh and logged out", async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/members') }, trawl.auth(b.key));
    expect(res.status).toBe(200);
    expect(res.body.data.metadata.cacheState).toBe('miss');
  });
});

describe('public teams', () => {
  const row = (teamId: string, url: string, content: string): IndexedPage => ({
    teamId, url, host: new URL(url).hostname, path: new URL(url).pathname, title: 'Notes', description: '', content, kind: 'web', filetype: 'html', adult: false,
  });

  test('keyless callers see only public teams; teams see their own and public ones; `local` names the local team', () => {
    const config = loadConfig({ TRAWL_SEARCH_PUBLIC_TEAMS: 'local, team-p' });
    expect(searchableTeams(config, KEYLESS_TEAM_ID).sort()).toEqual([LOCAL_TEAM_ID, 'team-p'].sort());
    expect(searchableTeams(config, 'team-b').sort()).toEqual([LOCAL_TEAM_ID, 'team-b', 'team-p'].sort());
    expect(searchableTeams(loadConfig({}), KEYLESS_TEAM_ID)).toEqual([]);
    expect(searchableTeams(loadConfig({}), 'team-b')).toEqual(['team-b']);
  });

  test('the index returns the rows of the given teams only, one hit per URL', async () => {
    const db = trawl.running.services.db;
    await upsertPages(db, [
      row('team-p', 'https://p.example/one', 'the periwinklecove tide'),
      row('team-b', 'https://p.example/one', 'the periwinklecove tide again'),
      row('team-x', 'https://x.example/two', 'secret periwinklecove notes'),
    ]);
    const find = async (teams: string[]) =>
      (await searchPages(db, { teams, parsed: parseQuery('periwinklecove'), source: 'web', limit: 10, highlights: false })).map((h) => h.url);
    expect(await find(['team-p', 'team-b'])).toEqual(['https://p.example/one']);
    expect(await find(['team-x'])).toEqual(['https://x.example/two']);
    expect(await find([])).toEqual([]);
  });
});
