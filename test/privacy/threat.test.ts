/**
 * threatProtection (issue 17; compat.md §2.2): rules and risk score (unit), then through the API on
 * two fixture hosts (127.0.0.1 and 127.0.0.2): a blacklisted start URL answers 403 with the rule's
 * code, the whitelist beats the blacklist, a redirect to a blacklisted host is refused at the hop, a
 * crawl skips blocked links and lists them in its errors, a map leaves them out, a team policy set
 * with `trawl teams update --threat-policy` applies, interact checks every navigation of its live page
 * and the team policy of now before replaying, the admin API sets team policies for admin keys only,
 * zscaler mode blocks with its list or says what to set (503 or a warning), and bad input answers 400
 * naming the field on every route that takes a policy.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { effectiveThreatPolicy, validateThreatPolicy } from '../../core/threat/policy.ts';
import { threatVerdict } from '../../core/threat/check.ts';
import { riskScore } from '../../core/threat/risk.ts';
import { loadThreatLists, resetThreatLists } from '../../core/threat/lists.ts';
import { Registry } from '../../core/registry.ts';
import { zscalerEntry } from '../../plugins/threat-list/zscaler.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

setDefaultTimeout(60_000);

const policy = (p: Record<string, unknown>, team?: Record<string, unknown>) => effectiveThreatPolicy(team ? validateThreatPolicy(team) : undefined, validateThreatPolicy(p));

describe('rules', () => {
  test('domains match themselves and subdomains, globs only subdomains; the whitelist beats every rule', () => {
    const p = policy({ blacklist: ['evil.example', '*.ads.example'], blockedTlds: ['zip'] });
    expect(threatVerdict('https://evil.example/x', p)?.code).toBe('THREAT_BLOCKED_BLACKLIST');
    expect(threatVerdict('https://a.evil.example/x', p)?.code).toBe('THREAT_BLOCKED_BLACKLIST');
    expect(threatVerdict('https://ads.example/', p)).toBeUndefined();
    expect(threatVerdict('https://t.ads.example/', p)?.rule).toBe('blacklist');
    expect(threatVerdict('https://files.zip/a', p)?.code).toBe('THREAT_BLOCKED_TLD');
    const white = policy({ blacklist: ['evil.example'], blockedTlds: ['zip'], whitelist: ['ok.evil.example', 'files.zip'] });
    expect(threatVerdict('https://ok.evil.example/', white)).toBeUndefined();
    expect(threatVerdict('https://files.zip/', white)).toBeUndefined();
  });
  test('risk score: deterministic features; blocks at or above the threshold in normal mode only', () => {
    const ip = riskScore(new URL('http://203.0.113.7/login'));
    expect(ip.features).toContain('IP-literal host');
    const phish = riskScore(new URL('https://paypal.secure.login.account.example.net/'), { contentType: 'application/x-msdownload' });
    expect(phish.features.join(' ')).toContain('brand name "paypal"');
    expect(phish.features.join(' ')).toContain('download content type');
    expect(phish.score).toBeGreaterThanOrEqual(70);
    expect(riskScore(new URL('https://xn--pypal-4ve.com/')).features).toContain('punycode host');
    expect(riskScore(new URL('https://www.paypal.com/')).features.join(' ')).not.toContain('brand');
    expect(threatVerdict('https://paypal.secure.login.account.example.net/', policy({ mode: 'normal', riskScoreThreshold: 40 }))?.code).toBe('THREAT_BLOCKED_RISK_SCORE');
    expect(threatVerdict('https://paypal.secure.login.account.example.net/', policy({ mode: 'manual-only', blacklist: ['x.example'] }))).toBeUndefined();
  });
  test('mode off and no policy check nothing; zscaler without a list fails open or closed per failurePolicy', () => {
    expect(policy({ mode: 'off', blacklist: ['evil.example'] })).toBeUndefined();
    expect(policy({})).toBeUndefined();
    expect(threatVerdict('https://a.example/', policy({ mode: 'zscaler', failurePolicy: 'closed' }))?.code).toBe('THREAT_CHECK_UNAVAILABLE');
    expect(threatVerdict('https://a.example/', policy({ mode: 'zscaler', failurePolicy: 'open' }))).toBeUndefined();
  });
});

describe('threat-list plugins', () => {
  test('the local-file list blocks listed domains and their subdomains in normal mode', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'threat-')), 'list.txt');
    writeFileSync(file, '# blocked\nmalware.example\n0.0.0.0 tracker.example\n\n');
    resetThreatLists();
    await loadThreatLists(new Registry(), { threatListFile: file } as never);
    const normal = policy({ mode: 'normal' });
    expect(threatVerdict('https://cdn.malware.example/a', normal)).toMatchObject({ code: 'THREAT_BLOCKED_LIST', rule: 'threat-list:local-file' });
    expect(threatVerdict('https://tracker.example/', normal)?.code).toBe('THREAT_BLOCKED_LIST');
    expect(threatVerdict('https://fine.example/', normal)).toBeUndefined();
    resetThreatLists();
    await loadThreatLists(new Registry(), { threatListFile: join(file, 'missing') } as never);
    expect(threatVerdict('https://fine.example/', policy({ mode: 'normal', failurePolicy: 'closed' }))?.code).toBe('THREAT_CHECK_UNAVAILABLE');
    expect(threatVerdict('https://fine.example/', policy({ mode: 'normal', failurePolicy: 'open' }))).toBeUndefined();
    resetThreatLists();
  });

  test('the zscaler list (TRAWL_ZSCALER_LIST_FILE) reads domains, URLs and a URL category CSV; zscaler mode blocks with it', async () => {
    expect(['evil.example', '*.evil.example', 'https://Phish.Example:8443/login?x=1', '"ads.example/banner",Custom Category', 'URL,Category', '# comment', ''].map(zscalerEntry))
      .toEqual(['evil.example', 'evil.example', 'phish.example', 'ads.example', undefined, undefined, undefined]);
    const file = join(mkdtempSync(join(tmpdir(), 'zscaler-')), 'category.csv');
    writeFileSync(file, 'URL,Category\nhttps://phish.example/login,Phishing\n.c2.example,Botnet\n');
    resetThreatLists();
    await loadThreatLists(new Registry(), { zscalerListFile: file } as never);
    const z = policy({ mode: 'zscaler', failurePolicy: 'closed' });
    expect(threatVerdict('https://phish.example/other', z)).toMatchObject({ code: 'THREAT_BLOCKED_LIST', rule: 'threat-list:zscaler' });
    expect(threatVerdict('https://x.c2.example/', z)?.code).toBe('THREAT_BLOCKED_LIST');
    expect(threatVerdict('https://fine.example/', z)).toBeUndefined();
    resetThreatLists();
  });
});

let site: FixtureSite;
let other: FixtureSite;
let trawl: AccountsTrawl;
let k: { key: string; team: string };

beforeAll(async () => {
  other = serveFixtures({ '/': '<html><body><main><p>Other host page.</p></main></body></html>', '/x': '<html><body><main><p>Other x.</p></main></body></html>' }, '127.0.0.2');
  site = serveFixtures({
    '/': `<html><body><main><p>Start.</p><a href="/a">A</a> <a href="/hop">Hop</a> <a href="${other.url('/x')}">Other</a></main></body></html>`,
    '/a': '<html><body><main><p>Page A.</p></main></body></html>',
    '/hop': () => new Response(null, { status: 302, headers: { location: other.url('/') } }),
  });
  trawl = await startAccountsTrawl();
  k = await trawl.key();
}, 120_000);
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
  other?.stop();
}, 60_000);

const scrape = (body: Record<string, unknown>, key = k.key) => trawl.post('/v2/scrape', body, trawl.auth(key));

describe('through the API', () => {
  test('a blacklisted start URL answers 403 with the rule; the whitelist beats the blacklist', async () => {
    const res = await scrape({ url: other.url('/'), threatProtection: { blacklist: ['127.0.0.2'] } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('THREAT_BLOCKED_BLACKLIST');
    expect(res.body.error).toContain('blacklist');
    const ok = await scrape({ url: other.url('/'), threatProtection: { blacklist: ['127.0.0.2'], whitelist: ['127.0.0.2'] } });
    expect(ok.status).toBe(200);
  });

  test('a redirect to a blacklisted host is refused at the hop', async () => {
    const before = other.hits.length;
    const res = await scrape({ url: site.url('/hop'), threatProtection: { blacklist: ['127.0.0.2'] } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('THREAT_BLOCKED_BLACKLIST');
    expect(other.hits.length).toBe(before); // never fetched
  });

  test('a crawl skips blocked links and lists them in its errors, with the redirect hop', async () => {
    const start = await trawl.post('/v2/crawl', { url: site.url('/'), limit: 10, allowExternalLinks: true, threatProtection: { blacklist: ['127.0.0.2'] } }, trawl.auth(k.key));
    expect(start.status).toBe(200);
    let status: any;
    for (let i = 0; i < 120; i++) {
      status = (await trawl.get(`/v2/crawl/${start.body.id}`, trawl.auth(k.key))).body;
      if (status.status === 'completed') break;
      await Bun.sleep(250);
    }
    expect(status.status).toBe('completed');
    const urls = status.data.map((d: any) => d.metadata.sourceURL);
    expect(urls).toContain(site.url('/a'));
    expect(urls.some((u: string) => u.startsWith(other.origin))).toBe(false);
    const errors = (await trawl.get(`/v2/crawl/${start.body.id}/errors`, trawl.auth(k.key))).body;
    const codes = errors.errors.map((e: any) => `${e.code} ${e.url}`);
    expect(codes).toContain(`THREAT_BLOCKED_BLACKLIST ${other.url('/x')}`);
    expect(codes.some((c: string) => c.startsWith('THREAT_BLOCKED_BLACKLIST') && c.includes('/hop'))).toBe(true);
  });

  test('a browser navigation (a redirect followed by Chromium) to a blacklisted host is refused', async () => {
    const before = other.hits.length;
    const res = await scrape({ url: site.url('/hop'), actions: [{ type: 'wait', milliseconds: 10 }], threatProtection: { blacklist: ['127.0.0.2'] } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('THREAT_BLOCKED_BLACKLIST');
    expect(other.hits.length).toBe(before);
  });

  test('interact: every navigation of the live page is checked (goto, a clicked link)', async () => {
    const scraped = await scrape({ url: site.url('/'), maxAge: 0, threatProtection: { blacklist: ['127.0.0.2'] } });
    expect(scraped.status).toBe(200);
    const id = scraped.body.data.metadata.scrapeId;
    const before = other.hits.length;
    const res = await trawl.post(`/v2/scrape/${id}/interact`, {
      code: `try { await page.click('a[href="${other.url('/x')}"]'); await page.waitForTimeout(1000); } catch (e) { console.log('click', e.message); }
             try { await page.goto(${JSON.stringify(other.url('/'))}); } catch (e) { console.log('goto', e.message); }
             console.log(await page.url());`,
    }, trawl.auth(k.key));
    expect(res.status).toBe(200);
    const lines = res.body.stdout.trim().split('\n');
    // The click's navigation is refused after the click returned: the next call of the request fails.
    expect(lines[0]).toStartWith('click page.waitForTimeout failed: THREAT_BLOCKED_BLACKLIST');
    expect(lines[1]).toStartWith('goto page.goto failed: THREAT_BLOCKED_BLACKLIST');
    expect(lines[1]).toContain('blacklist entry "127.0.0.2"');
    expect(lines[2]).toBe(site.url('/')); // the page stayed
    expect(other.hits.length).toBe(before);
    // Allowed navigations still work in the same session.
    const ok = await trawl.post(`/v2/scrape/${id}/interact`, { code: `await page.goto(${JSON.stringify(site.url('/a'))}); console.log(await page.textContent('main'));` }, trawl.auth(k.key));
    expect(ok.body.stdout).toBe('Page A.\n');
    await fetch(`${trawl.base}/v2/scrape/${id}/interact`, { method: 'DELETE', headers: trawl.auth(k.key) });
  });

  test('interact: a scrape the team policy now refuses is not replayed (403)', async () => {
    const team = await trawl.key();
    const scraped = await scrape({ url: other.url('/'), maxAge: 0 }, team.key);
    expect(scraped.status).toBe(200);
    expect((await trawl.admin('teams', 'update', team.team, '--threat-policy', JSON.stringify({ mode: 'manual-only', blacklist: ['127.0.0.2'] }))).code).toBe(0);
    const before = other.hits.length;
    const res = await trawl.post(`/v2/scrape/${scraped.body.data.metadata.scrapeId}/interact`, { code: 'console.log(await page.url())' }, trawl.auth(team.key));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('THREAT_BLOCKED_BLACKLIST');
    expect(other.hits.length).toBe(before);
  });

  test('a map of a blocked site answers 403 and leaves blocked links out', async () => {
    const blocked = await trawl.post('/v2/map', { url: other.url('/'), threatProtection: { blacklist: ['127.0.0.2'] } }, trawl.auth(k.key));
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('THREAT_BLOCKED_BLACKLIST');
    const res = await trawl.post('/v2/map', { url: site.url('/'), threatProtection: { blacklist: ['127.0.0.2'] } }, trawl.auth(k.key));
    expect(res.status).toBe(200);
    expect(res.body.links.some((l: any) => l.url.startsWith(other.origin))).toBe(false);
  });

  test('search results are checked before they are scraped', async () => {
    // The whitelist test above scraped the other host, so the local index knows it.
    let web: any[] = [];
    for (let i = 0; i < 40 && !web.length; i++) {
      web = (await trawl.post('/v2/search', { query: 'Other host page' }, trawl.auth(k.key))).body.data?.web ?? [];
      if (!web.length) await Bun.sleep(250);
    }
    expect(web.some((w) => w.url.startsWith(other.origin))).toBe(true);
    const before = other.hits.length;
    const res = await trawl.post('/v2/search', { query: 'Other host page', scrapeOptions: { formats: ['markdown'], threatProtection: { blacklist: ['127.0.0.2'] } } }, trawl.auth(k.key));
    expect(res.status).toBe(200);
    const item = res.body.data.web.find((w: any) => w.url.startsWith(other.origin));
    expect(item.markdown).toBeUndefined();
    expect(JSON.stringify(item.metadata)).toContain('blacklist');
    expect(other.hits.length).toBe(before);
  });

  test('a batch with a blocked URL answers 403', async () => {
    const res = await trawl.post('/v2/batch/scrape', { urls: [site.url('/a'), other.url('/')], threatProtection: { blacklist: ['127.0.0.2'] } }, trawl.auth(k.key));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('THREAT_BLOCKED_BLACKLIST');
  });

  test('a team policy set with `trawl teams update --threat-policy` applies; a request field overrides it', async () => {
    const team = await trawl.key();
    const set = await trawl.admin('teams', 'update', team.team, '--threat-policy', JSON.stringify({ mode: 'manual-only', blacklist: ['127.0.0.2'] }));
    expect(set.code).toBe(0);
    expect((await scrape({ url: other.url('/') }, team.key)).status).toBe(403);
    expect((await scrape({ url: other.url('/'), threatProtection: { blacklist: [] } }, team.key)).status).toBe(200);
    const bad = await trawl.admin('teams', 'update', team.team, '--threat-policy', JSON.stringify({ riskScoreThreshold: 120 }));
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('riskScoreThreshold');
    expect((await trawl.admin('teams', 'update', team.team, '--threat-policy', 'none')).code).toBe(0);
    expect((await scrape({ url: other.url('/') }, team.key)).status).toBe(200);
  });

  test('the admin API sets a team policy: keyless 401, a plain key and a restricted admin key 403; bad input names the field', async () => {
    const team = await trawl.key();
    const args = ['teams', 'update', team.team, '--threat-policy', JSON.stringify({ mode: 'manual-only', blacklist: ['127.0.0.2'] })];
    const newKey = async (...flags: string[]) => {
      const r = await trawl.admin('keys', 'create', '--team', team.team, ...flags);
      expect(r.code).toBe(0);
      return r.out.match(/fc-[0-9a-f]{32}/)![0];
    };
    const admin = await newKey('--admin');
    const restrictedAdmin = await newKey('--admin', '--endpoints', 'scrape');
    const run = (headers: Record<string, string>, argv: string[]) => trawl.post('/admin/commands', { args: argv }, headers);
    expect((await run({}, args)).status).toBe(401);
    expect((await run(trawl.auth(team.key), args)).status).toBe(403);
    expect((await run(trawl.auth(restrictedAdmin), args)).status).toBe(403);
    expect((await scrape({ url: other.url('/') }, team.key)).status).toBe(200); // nothing was set
    const ok = await run(trawl.auth(admin), args);
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe(0);
    expect((await scrape({ url: other.url('/') }, team.key)).status).toBe(403);
    for (const [policy, field] of [[{ riskScoreThreshold: 101 }, 'riskScoreThreshold'], [{ whitelist: ['*.*.com'] }, 'whitelist[0]'], [{ blockedTlds: Array.from({ length: 1001 }, () => 'zip') }, 'blockedTlds']] as const) {
      const bad = await run(trawl.auth(admin), ['teams', 'update', team.team, '--threat-policy', JSON.stringify(policy)]);
      expect(bad.body.code).not.toBe(0);
      expect(bad.body.err).toContain(field);
    }
    await run(trawl.auth(admin), ['teams', 'update', team.team, '--threat-policy', 'none']);
  });

  test('bad threatProtection (and redactPII) in crawl, map, batch and search answers 400 naming the field', async () => {
    const bad = { blacklist: ['ex*ample.com'] };
    const cases: [string, Record<string, unknown>, string][] = [
      ['/v2/crawl', { url: site.url('/'), limit: 2, threatProtection: bad }, 'threatProtection.blacklist[0]'],
      ['/v2/crawl', { url: site.url('/'), limit: 2, scrapeOptions: { threatProtection: { riskScoreThreshold: 101 } } }, 'scrapeOptions.threatProtection.riskScoreThreshold'],
      ['/v2/map', { url: site.url('/'), threatProtection: bad }, 'threatProtection.blacklist[0]'],
      ['/v2/batch/scrape', { urls: [site.url('/a')], threatProtection: { whitelist: Array.from({ length: 1001 }, (_, i) => `d${i}.example`) } }, 'threatProtection.whitelist'],
      ['/v2/search', { query: 'x', scrapeOptions: { formats: ['markdown'], threatProtection: { mode: 'paranoid' } } }, 'threatProtection.mode'],
      ['/v2/crawl', { url: site.url('/'), limit: 2, scrapeOptions: { redactPII: { entities: ['EMAIL', 'SSN'] } } }, 'redactPII'],
      ['/v2/batch/scrape', { urls: [site.url('/a')], redactPII: { replaceStyle: 'blur' } }, 'redactPII'],
    ];
    for (const [path, body, field] of cases) {
      const res = await trawl.post(path, body, trawl.auth(k.key));
      expect(`${path} ${res.status}`).toBe(`${path} 400`);
      expect(res.text.replaceAll('/', '.')).toContain(field); // `a.b[0]` from Trawl's check, `/a/b` from the schema
    }
  });

  test('zscaler mode without a Zscaler list: open acts without it and warns, closed answers 503; both name TRAWL_ZSCALER_LIST_FILE', async () => {
    const open = await scrape({ url: site.url('/a'), maxAge: 0, threatProtection: { mode: 'zscaler', failurePolicy: 'open' } });
    expect(open.status).toBe(200);
    expect(open.body.data.warning).toContain('TRAWL_ZSCALER_LIST_FILE');
    const map = await trawl.post('/v2/map', { url: site.url('/'), threatProtection: { mode: 'zscaler' } }, trawl.auth(k.key));
    expect(map.status).toBe(200);
    expect(map.body.warning).toContain('TRAWL_ZSCALER_LIST_FILE');
    const before = site.hits.length;
    const closed = await scrape({ url: site.url('/a'), maxAge: 0, threatProtection: { mode: 'zscaler', failurePolicy: 'closed' } });
    expect(closed.status).toBe(503);
    expect(closed.body.error).toContain('TRAWL_ZSCALER_LIST_FILE');
    const crawl = await trawl.post('/v2/crawl', { url: site.url('/'), limit: 2, threatProtection: { mode: 'zscaler', failurePolicy: 'closed' } }, trawl.auth(k.key));
    expect(crawl.status).toBe(503);
    expect(site.hits.length).toBe(before); // nothing fetched
  });

  test('zscaler mode with a Zscaler list blocks what it names', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'zscaler-')), 'list.txt');
    writeFileSync(file, '127.0.0.2\n');
    resetThreatLists();
    await loadThreatLists(new Registry(), { zscalerListFile: file } as never);
    try {
      const res = await scrape({ url: other.url('/'), maxAge: 0, threatProtection: { mode: 'zscaler', failurePolicy: 'closed' } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('THREAT_BLOCKED_LIST');
      expect(res.body.error).toContain('zscaler');
      const ok = await scrape({ url: site.url('/a'), maxAge: 0, threatProtection: { mode: 'zscaler', failurePolicy: 'closed' } });
      expect(ok.status).toBe(200);
      expect(ok.body.data.warning ?? '').not.toContain('zscaler');
    } finally {
      resetThreatLists();
    }
  });

  test('bad input answers 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ blacklist: ['ex*ample.com'] }, 'threatProtection.blacklist[0]'],
      [{ whitelist: ['ok.com', '*.*.com'] }, 'threatProtection.whitelist[1]'],
      [{ riskScoreThreshold: 101 }, 'riskScoreThreshold'],
      [{ riskScoreThreshold: -1 }, 'riskScoreThreshold'],
      [{ blacklist: Array.from({ length: 1001 }, (_, i) => `d${i}.example`) }, 'blacklist'],
      [{ blockedTlds: ['.zip'] }, 'blockedTlds'],
      [{ mode: 'paranoid' }, 'mode'],
    ];
    for (const [tp, field] of cases) {
      const res = await scrape({ url: site.url('/a'), threatProtection: tp });
      expect(res.status).toBe(400);
      expect(res.text).toContain(field);
    }
  });
});
