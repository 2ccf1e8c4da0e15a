/**
 * Pure rules of the browser engine, no Chromium: action validation (interface.md "Action types",
 * compat.md §2.2), the private-address test of the SSRF guard, the ad/tracker matcher, and the
 * location tables.
 */
import { describe, expect, test } from 'bun:test';
import { TrawlError } from '../../core/errors.ts';
import { isAdRequest } from '../../plugins/engine/browser/adblock.ts';
import { createHostGuard, isPrivateAddress } from '../../core/net/host-guard.ts';
import { acceptLanguage, locationEmulation } from '../../core/scrape/location.ts';
import { validateActions } from '../../plugins/engine/browser/validate.ts';
import { GUARDED } from '../../core/net/target-policy.ts';

function rejects(actions: unknown): string {
  try {
    validateActions(actions);
  } catch (e) {
    expect(e).toBeInstanceOf(TrawlError);
    expect((e as TrawlError).code).toBe('BAD_REQUEST');
    expect((e as TrawlError).status).toBe(400);
    return (e as Error).message;
  }
  throw new Error('expected a BAD_REQUEST');
}

describe('validateActions', () => {
  test('accepts every action type with valid fields', () => {
    const all = [
      { type: 'wait', milliseconds: 100 },
      { type: 'wait', selector: '#a' },
      { type: 'screenshot', fullPage: true, quality: 80, viewport: { width: 800, height: 600 } },
      { type: 'click', selector: 'button', all: true },
      { type: 'write', text: '' },
      { type: 'press', key: 'Enter' },
      { type: 'scroll', direction: 'up', selector: '#list' },
      { type: 'scrape' },
      { type: 'executeJavascript', script: '1+1' },
      { type: 'pdf', format: 'A4', landscape: true, scale: 0.5 },
    ];
    expect(validateActions(all)).toHaveLength(all.length);
    expect(validateActions(undefined)).toEqual([]);
  });

  test('wait needs exactly one of milliseconds and selector, and nothing else', () => {
    expect(rejects([{ type: 'wait' }])).toBe('actions[0] (wait): exactly one of milliseconds or selector is required');
    expect(rejects([{ type: 'scrape' }, { type: 'wait', milliseconds: 5, selector: '#x' }])).toContain('actions[1] (wait): exactly one');
    expect(rejects([{ type: 'wait', milliseconds: 0 }])).toContain('at least 1');
    expect(rejects([{ type: 'wait', milliseconds: 1.5 }])).toContain('integer');
    expect(rejects([{ type: 'wait', selector: '' }])).toContain('non-empty');
    expect(rejects([{ type: 'wait', milliseconds: 5, extra: 1 }])).toContain('unexpected field extra');
  });

  test('at most 50 actions and 60 s of waiting', () => {
    expect(validateActions(Array.from({ length: 50 }, () => ({ type: 'scrape' })))).toHaveLength(50);
    expect(rejects(Array.from({ length: 51 }, () => ({ type: 'scrape' })))).toBe('at most 50 actions are allowed, got 51');
    expect(validateActions([{ type: 'wait', milliseconds: 30_000 }, { type: 'wait', milliseconds: 30_000 }])).toHaveLength(2);
    expect(rejects([{ type: 'wait', milliseconds: 30_000 }, { type: 'wait', milliseconds: 30_001 }])).toContain('60001 ms');
  });

  test('field rules of the other types', () => {
    expect(rejects([{ type: 'click' }])).toBe('actions[0] (click): selector is required');
    expect(rejects([{ type: 'write' }])).toBe('actions[0] (write): text is required');
    expect(rejects([{ type: 'press', key: '' }])).toContain('key is required');
    expect(rejects([{ type: 'scroll', direction: 'left' }])).toContain('direction must be "up" or "down"');
    expect(rejects([{ type: 'executeJavascript' }])).toContain('script is required');
    expect(rejects([{ type: 'screenshot', quality: 101 }])).toContain('quality');
    expect(rejects([{ type: 'screenshot', viewport: { width: 100 } }])).toContain('viewport');
    expect(rejects([{ type: 'pdf', format: 'B5' }])).toContain('format must be one of A0');
    expect(rejects([{ type: 'pdf', scale: 3 }])).toContain('scale');
    expect(rejects([{ type: 'hover', selector: 'a' }])).toContain('unknown action type "hover"');
    expect(rejects('click')).toBe('actions must be an array');
    expect(rejects([null])).toBe('actions[0] must be an object');
  });
});

describe('isPrivateAddress', () => {
  test.each([
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', '2002:c0a8:0101::1', 'ff02::1', '2001:db8::1', 'not-an-ip',
  ])('%s is private', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    '%s is public',
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );

  test('the host guard resolves names and refuses any private address', async () => {
    const guard = createHostGuard(GUARDED, async (h: string) => ({ 'mixed.test': ['8.8.8.8', '10.0.0.1'], 'ok.test': ['8.8.8.8'] })[h as 'ok.test'] ?? Promise.reject(new Error('ENOTFOUND')));
    expect(await guard.check('ok.test')).toEqual({ ok: true });
    expect(await guard.check('mixed.test')).toMatchObject({ ok: false, kind: 'private' });
    expect(await guard.check('nowhere.test')).toMatchObject({ ok: false, kind: 'unresolved' });
    expect(await guard.check('localhost')).toMatchObject({ ok: false, kind: 'private' });
    expect(await guard.check('[::1]')).toMatchObject({ ok: false, kind: 'private' });
    expect(await guard.check('8.8.4.4')).toEqual({ ok: true });
  });
});

describe('isAdRequest', () => {
  test.each([
    'https://securepubads.g.doubleclick.net/tag/js/gpt.js',
    'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js',
    'https://www.google-analytics.com/analytics.js',
    'https://cdn.cookielaw.org/scripttemplates/otSDKStub.js',
    'https://site.example/pagead/show_ads.js',
    'https://site.example/assets/ads.js?v=2',
  ])('%s is blocked', (url) => expect(isAdRequest(url)).toBe(true));

  test.each([
    'https://site.example/app.js',
    'https://site.example/uploads/headers.png',
    'https://roads.site.example/maps.js',
    'https://site.example/downloads/file.pdf',
    'data:text/plain,ads',
  ])('%s is allowed', (url) => expect(isAdRequest(url)).toBe(false));
});

describe('location', () => {
  test('country gives the time zone and default language; languages win', () => {
    expect(locationEmulation({ country: 'de' })).toEqual({ timezone: 'Europe/Berlin', languages: ['de-DE'] });
    expect(locationEmulation({ country: 'US', languages: ['fr-CA', 'en-US,en;q=0.9'] })).toEqual({
      timezone: 'America/New_York',
      languages: ['fr-CA', 'en-US', 'en'],
    });
    expect(locationEmulation({ country: 'ZZ' })).toEqual({ timezone: undefined, languages: undefined });
    expect(locationEmulation({ languages: ['bad value\r\n'] }).languages).toBeUndefined();
    expect(locationEmulation(undefined)).toEqual({});
  });

  test('Accept-Language gets falling q-values', () => {
    expect(acceptLanguage(['de-DE', 'de', 'en'])).toBe('de-DE,de;q=0.9,en;q=0.8');
  });
});
