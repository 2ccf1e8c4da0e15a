/**
 * Named browser profiles through the HTTP API (interface.md `profile`; compat.md §5): sessions with
 * the same name share cookies and localStorage, `saveChanges: false` reads without writing, and only
 * one saving session per profile runs at a time (409).
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { siteAndTrawl } from './helpers.ts';


setDefaultTimeout(60_000);
const env = siteAndTrawl();

const account = async (profile?: Record<string, unknown>) => {
  const res = await env.trawl.post('/v2/scrape', { url: env.site.url('/account'), ...(profile ? { profile } : {}), maxAge: 0 });
  expect(res.status).toBe(200);
  return res.body.data.markdown as string;
};

describe('profiles', () => {
  test('cookies and localStorage set in one scrape are there in the next scrape with the same profile', async () => {
    const login = await env.trawl.post('/v2/scrape', { url: env.site.url('/login?user=ada&theme=dark'), profile: { name: 'shop' } });
    expect(login.status).toBe(200);
    const md = await account({ name: 'shop' });
    expect(md).toContain('Logged in as ada.');
    expect(md).toContain('Theme: dark.');
    // The cookie went to the site as a real cookie.
    expect(env.site.hits.filter((h) => h.path === '/account').at(-1)!.headers.cookie).toContain('session=ada');
    // Without the profile, or with another one, nothing is shared.
    expect(await account()).toContain('Not logged in.');
    const other = await account({ name: 'other' });
    expect(other).toContain('Not logged in.');
    expect(other).toContain('Theme: none.');
  });

  test('saveChanges false uses the saved state without writing it back; a saving session overwrites it', async () => {
    await env.trawl.post('/v2/scrape', { url: env.site.url('/login?user=kim&theme=blue'), profile: { name: 'ro' } });
    const eve = await env.trawl.post('/v2/scrape', { url: env.site.url('/login?user=eve&theme=light'), profile: { name: 'ro', saveChanges: false } });
    expect(eve.status).toBe(200);
    let md = await account({ name: 'ro', saveChanges: false });
    expect(md).toContain('Logged in as kim.');
    expect(md).toContain('Theme: blue.');
    await env.trawl.post('/v2/scrape', { url: env.site.url('/login?user=bob&theme=green'), profile: { name: 'ro' } });
    md = await account({ name: 'ro' });
    expect(md).toContain('Logged in as bob.');
    expect(md).toContain('Theme: green.');
  });

  test('one saving session per profile at a time: a second one gets 409, a read-only one runs', async () => {
    const slow = env.trawl.post('/v2/scrape', { url: env.site.url('/slow?ms=2500'), profile: { name: 'busy' }, timeout: 20_000 });
    // The first session holds the profile once its page is being fetched (no fixed sleep: a loaded
    // machine may take a while to start the browser); the page then takes 2.5 s more.
    const until = Date.now() + 30_000; // hang bound only
    while (env.site.count('/slow?ms=2500') === 0 && Date.now() < until) await Bun.sleep(20);
    const second = await env.trawl.post('/v2/scrape', { url: env.site.url('/article'), profile: { name: 'busy' } });
    expect(second.status).toBe(409);
    expect(second.body.success).toBe(false);
    expect(second.body.error).toContain('busy');
    const readOnly = await env.trawl.post('/v2/scrape', { url: env.site.url('/article'), profile: { name: 'busy', saveChanges: false } });
    expect(readOnly.status).toBe(200);
    expect((await slow).status).toBe(200);
    // Once the first session ended, the profile is free again.
    expect((await env.trawl.post('/v2/scrape', { url: env.site.url('/article'), profile: { name: 'busy' } })).status).toBe(200);
  });

  test('profile names are validated (1 to 128 characters)', async () => {
    expect((await env.trawl.post('/v2/scrape', { url: env.site.url('/article'), profile: { name: '' } })).status).toBe(400);
    expect((await env.trawl.post('/v2/scrape', { url: env.site.url('/article'), profile: { name: 'x'.repeat(129) } })).status).toBe(400);
  });
});
