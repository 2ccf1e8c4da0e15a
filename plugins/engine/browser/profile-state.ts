/**
 * Named browser profiles in the browser engine (interface.md `profile`; issue 3 scope 4): restores a
 * profile's cookies and localStorage into a job's fresh incognito context before the first
 * navigation, and reads them back at the end of the session. localStorage can only be read or written
 * from a document of its origin, so a helper page of the same context opens each origin on a tiny
 * document answered by request interception (never from the network) and does the work there; the
 * job's page is never touched. Only top-level origins the page visited (and those restored) are
 * captured; at most `MAX_ORIGINS` of them.
 */
import type { BrowserContext, Page } from 'puppeteer-core';
import type { ProfileState } from '../../../core/plugin.ts';

/** Most localStorage origins kept per profile. */
export const MAX_ORIGINS = 50;
const HELPER_TIMEOUT_MS = 5_000;
const COOKIE_FIELDS = ['name', 'value', 'domain', 'path', 'expires', 'httpOnly', 'secure', 'sameSite', 'priority', 'sourceScheme', 'partitionKey'];

/** Origins of the page's top-level documents, collected as it navigates. */
export function trackOrigins(page: Page, seed: string[] = []): Set<string> {
  const origins = new Set(seed);
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    const origin = originOf(frame.url());
    if (origin) origins.add(origin);
  });
  return origins;
}

/** Sets a profile's cookies and localStorage in `context` (before the job's page navigates). */
export async function restoreProfile(context: BrowserContext, state: ProfileState): Promise<void> {
  const cookies = state.cookies
    .map((c) => Object.fromEntries(Object.entries(c).filter(([k, v]) => COOKIE_FIELDS.includes(k) && v !== undefined)))
    .filter((c) => typeof c.name === 'string' && typeof c.value === 'string' && typeof c.domain === 'string')
    .map((c) => ((c.expires as number) < 0 ? { ...c, expires: undefined } : c));
  if (cookies.length) await context.setCookie(...(cookies as unknown as Parameters<BrowserContext['setCookie']>));
  const origins = state.origins.filter((o) => originOf(o.origin) && o.localStorage.length > 0);
  if (origins.length === 0) return;
  await withHelper(context, async (open) => {
    for (const o of origins) {
      const helper = await open(o.origin);
      await helper.evaluate((items: [string, string][]) => {
        for (const [k, v] of items) localStorage.setItem(k, v);
      }, o.localStorage);
    }
  });
}

/**
 * Reads the context's cookies and the localStorage of `origins`.
 * @param origins top-level origins to read (from `trackOrigins`), at most `MAX_ORIGINS` used
 */
export async function captureProfile(context: BrowserContext, origins: Iterable<string>): Promise<ProfileState> {
  const cookies = (await context.cookies()).map((c) => Object.fromEntries(Object.entries(c).filter(([k]) => COOKIE_FIELDS.includes(k))));
  const list = [...new Set([...origins].filter((o) => originOf(o)))].slice(-MAX_ORIGINS);
  const out: ProfileState = { cookies, origins: [] };
  if (list.length === 0) return out;
  await withHelper(context, async (open) => {
    for (const origin of list) {
      const helper = await open(origin);
      const items = await helper.evaluate(() => {
        const r: [string, string][] = [];
        for (let i = 0; i < localStorage.length; i++) {
          const k = localStorage.key(i)!;
          r.push([k, localStorage.getItem(k) ?? '']);
        }
        return r;
      });
      if (items.length) out.origins.push({ origin, localStorage: items });
    }
  });
  return out;
}

/** `scheme://host[:port]` of an http(s) URL, or undefined. */
function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `work` with a helper page whose navigations to an origin's root get an empty local document. */
async function withHelper(context: BrowserContext, work: (open: (origin: string) => Promise<Page>) => Promise<void>): Promise<void> {
  const helper = await context.newPage();
  try {
    await helper.setRequestInterception(true);
    let allowed = '';
    helper.on('request', (req) => {
      if (req.isInterceptResolutionHandled()) return;
      if (req.isNavigationRequest() && req.url() === allowed) {
        void req.respond({ status: 200, contentType: 'text/html', body: '<!doctype html><title>profile</title>' }).catch(() => undefined);
      } else {
        void req.abort('blockedbyclient').catch(() => undefined);
      }
    });
    await work(async (origin) => {
      allowed = `${origin}/`;
      await helper.goto(allowed, { waitUntil: 'domcontentloaded', timeout: HELPER_TIMEOUT_MS });
      return helper;
    });
  } finally {
    await helper.close().catch(() => undefined);
  }
}
