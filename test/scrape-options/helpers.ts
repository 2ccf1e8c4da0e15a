/**
 * Shared set-up of the scrape-options tests: a real Trawl on a known free port (so the blob URLs the
 * worker writes into documents point at it), and readers for PNG/PDF bytes and Chromium processes.
 */
import { afterAll, beforeAll } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { freePort, startSite, type Site } from './site.ts';

/** Starts Trawl (auth off unless `env` says otherwise) on a free port. */
export async function startOn(env: Record<string, string> = {}, mode: 'serve' | 'api' = 'serve'): Promise<TestTrawl> {
  const port = String(freePort());
  return startTrawl({ TRAWL_AUTH: 'off', PORT: port, TRAWL_PUBLIC_URL: `http://127.0.0.1:${port}`, ...env }, mode);
}

/**
 * The fixture site and a Trawl for one test file: started before its tests, stopped after them.
 * Read `site` and `trawl` inside tests (they are set once `beforeAll` has run).
 */
export function siteAndTrawl(env: Record<string, string> = {}): { site: Site; trawl: TestTrawl } {
  const ctx = {} as { site: Site; trawl: TestTrawl };
  beforeAll(async () => {
    ctx.site = startSite();
    ctx.trawl = await startOn(env);
  }, 120_000);
  afterAll(async () => {
    await ctx.trawl?.stop();
    ctx.site?.stop();
  }, 60_000);
  return ctx;
}

/** Width and height of a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes[0] !== 0x89 || bytes[1] !== 0x50) throw new Error('not a PNG');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

/** Downloads a URL and returns status, type and bytes. */
export async function download(url: string): Promise<{ status: number; type: string; bytes: Uint8Array }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Process ids of running Chromium processes whose command line mentions `text`. */
export function chromiumPids(text: string): number[] {
  const out = Bun.spawnSync(['pgrep', '-f', text]).stdout.toString().trim();
  return out ? out.split('\n').map(Number).filter((p) => p !== process.pid) : [];
}

export type { TestTrawl };
