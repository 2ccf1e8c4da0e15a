/**
 * Shared set-up for the browser engine tests: a temporary data directory, a PluginContext with the
 * local blob store, resolved scrape options with their defaults, and small readers for PNG sizes and
 * Chromium processes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalBlobStore, type LocalBlobStore } from '../../core/blob-stores/local.ts';
import { loadConfig, type ResolvedConfig } from '../../core/config.ts';
import type { ScrapeOptions } from '../../core/http/models/scrape.ts';
import { testScrapeOptions } from '../helpers/scrape-options.ts';
import { silentLogger } from '../../core/log.ts';
import type { EngineRequest, PluginContext } from '../../core/plugin.ts';
import { UNGUARDED } from '../../core/net/target-policy.ts';

export interface TestEnv {
  dir: string;
  config: ResolvedConfig;
  blobs: LocalBlobStore;
  ctx(opts?: { signal?: AbortSignal; deadlineMs?: number }): PluginContext;
  cleanup(): void;
}

export function testEnv(env: Record<string, string> = {}): TestEnv {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-browser-test-'));
  const config = loadConfig({ TRAWL_DATA_DIR: dir, TRAWL_ALLOW_PRIVATE_TARGETS: 'true', TRAWL_LOG_LEVEL: 'silent', ...env });
  const blobs = createLocalBlobStore(join(dir, 'blobs'), () => 'http://trawl.test');
  return {
    dir,
    config,
    blobs,
    ctx: (opts = {}) => ({
      config,
      log: silentLogger,
      signal: opts.signal ?? new AbortController().signal,
      deadline: Date.now() + (opts.deadlineMs ?? 60_000),
      blobs,
    }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Scrape options with the defaults of interface.md "Scrape options". */
export const scrapeOptions = testScrapeOptions;

export function engineRequest(url: string, over: Partial<ScrapeOptions> = {}, extra: Partial<EngineRequest> = {}): EngineRequest {
  const options = scrapeOptions(over);
  return { url, headers: options.headers ?? {}, options, timeoutMs: options.timeout, targets: UNGUARDED, ...extra };
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!sig.every((b, i) => bytes[i] === b)) throw new Error('not a PNG');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

/** Reads a blob by its URL from the store. */
export async function blobAt(blobs: LocalBlobStore, url: string) {
  const key = url.split('/').pop()!;
  const blob = await blobs.get(key);
  if (!blob) throw new Error(`no blob at ${url}`);
  return blob;
}

/** Process ids whose command line mentions `text` (e.g. a user-data directory). */
export function pgrep(text: string): number[] {
  const out = Bun.spawnSync(['pgrep', '-f', text]).stdout.toString().trim();
  return out ? out.split('\n').map(Number).filter((p) => p !== process.pid) : [];
}

/** Whether a process exists (and is not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8') as string;
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}
