/**
 * Helpers of the crawl tests: start a crawl or batch through the HTTP API, wait for a terminal
 * status, read every document by following `next`, and read the errors endpoint.
 */
import { expect } from 'bun:test';
import type { TestTrawl } from '../helpers/trawl.ts';
import type { PgDocsSite } from '../fixtures/crawl-site/pg-docs.ts';

export interface Api {
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  del(path: string): Promise<{ status: number; body: any; text: string }>;
  base: string;
  key?: string;
}

/** An API client with the admin key of a test Trawl (or a bare base URL). */
export function apiOf(trawl: Pick<TestTrawl, 'base' | 'adminKey'>): Api {
  const auth = (): Record<string, string> => (trawl.adminKey ? { authorization: `Bearer ${trawl.adminKey}` } : {});
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(path.startsWith('http') ? path : trawl.base + path, {
      method,
      headers: { ...auth(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
  return {
    base: trawl.base,
    key: trawl.adminKey,
    post: (p, b, h) => call('POST', p, b, h),
    get: (p, h) => call('GET', p, undefined, h),
    del: (p) => call('DELETE', p),
  };
}

/** Starts a crawl and returns its id (asserts the 200 envelope). */
export async function startCrawl(api: Api, body: Record<string, unknown>): Promise<string> {
  const res = await api.post('/v2/crawl', body);
  if (res.status !== 200) throw new Error(`crawl start ${res.status}: ${res.text}`);
  expect(res.body.success).toBe(true);
  expect(res.body.url).toBe(`${api.base}/v2/crawl/${res.body.id}`);
  return res.body.id;
}

/** Polls the status endpoint until the job is terminal; returns the last status body. */
export async function waitDone(api: Api, path: string, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`${path}?limit=1`);
    if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
    if (res.body.status !== 'scraping') return res.body;
    if (Date.now() > until) throw new Error(`job ${path} still running: ${res.text.slice(0, 500)}`);
    await Bun.sleep(100);
  }
}

/** Every document of a job, following `next` from the first page. */
export async function allDocs(api: Api, path: string): Promise<any[]> {
  const docs: any[] = [];
  let url: string | undefined = path;
  let hops = 0;
  while (url) {
    const res = await api.get(url);
    expect(res.status).toBe(200);
    docs.push(...res.body.data);
    url = res.body.next;
    if (++hops > 10_000) throw new Error('too many pages');
  }
  return docs;
}

/** Runs a crawl to its end: status, documents and error records. */
export async function crawl(api: Api, body: Record<string, unknown>, timeoutMs = 60_000) {
  const id = await startCrawl(api, body);
  const status = await waitDone(api, `/v2/crawl/${id}`, timeoutMs);
  const docs = await allDocs(api, `/v2/crawl/${id}`);
  const errors = (await api.get(`/v2/crawl/${id}/errors`)).body;
  return { id, status, docs, errors };
}

/** Paths (with query) of URLs, sorted, relative to `origin` when on it. */
export function paths(urls: string[], origin: string): string[] {
  return urls.map((u) => (u.startsWith(origin) ? u.slice(origin.length) || '/' : u)).sort();
}

/** Checks a finished crawl of the manual: every page once in the results. */
export async function expectWholeManual(api: Api, id: string, s: PgDocsSite): Promise<void> {
  const status = (await api.get(`/v2/crawl/${id}?limit=1`)).body;
  expect(status).toMatchObject({ status: 'completed', completed: s.pages.length, total: s.pages.length });
  const docs = await allDocs(api, `/v2/crawl/${id}`);
  expect(docs.length).toBe(s.pages.length);
  const urls = docs.map((d) => d.metadata.sourceURL);
  expect(new Set(urls).size).toBe(s.pages.length);
  expect(new Set(urls)).toEqual(new Set(s.pages.map((p) => `${s.origin}/${p}`)));
  expect(new Set(docs.map((d) => d.metadata.scrapeId)).size).toBe(s.pages.length);
  expect(docs.every((d) => typeof d.markdown === 'string' && d.markdown.length > 0)).toBe(true);
  const errors = (await api.get(`/v2/crawl/${id}/errors`)).body;
  expect(errors).toEqual({ errors: [], robotsBlocked: [] });
}

