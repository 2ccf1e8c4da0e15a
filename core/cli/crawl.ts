/**
 * `trawl crawl URL -o DIR`: starts a crawl (or resumes the one recorded in DIR/.trawl-crawl.json),
 * writes one markdown file per page as pages arrive, and shows progress: a cli-progress bar (pages
 * done / discovered, rate, errors) on a terminal, one plain line per page otherwise. Resuming re-reads
 * the crawl's status (the queue keeps its jobs across restarts) and skips files already written.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SingleBar } from 'cli-progress';
import type { ApiCaller } from '../mcp/api.ts';

/** Where a crawl's output goes and how progress is shown. */
export interface CrawlOutput {
  dir: string;
  /** Progress stream (stderr) and whether it is a terminal. */
  progress: NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean };
  pollMs?: number;
}

const STATE = '.trawl-crawl.json';

/** A file name for a page URL: its path as a slug, `index` for the root, `.md`. */
export function pageFile(url: string): string {
  const u = new URL(url);
  const slug = (u.pathname + u.search).replace(/^\/+|\/+$/g, '').replace(/[^A-Za-z0-9._-]+/g, '_') || 'index';
  return `${slug.slice(0, 180)}.md`;
}

/**
 * The crawl's status and the documents completed after the first `skip` (follows `next` while pages
 * bring documents: a running crawl always answers with a `next`, so an empty page ends the round).
 */
async function pagesAfter(api: ApiCaller, id: string, skip: number): Promise<{ status: any; docs: any[] }> {
  const first = await api('GET', `/v2/crawl/${id}?skip=${skip}`);
  if (first.status !== 200) throw new Error(`crawl status: ${first.body?.error ?? first.status}`);
  let status = first.body;
  const docs = [...(first.body.data ?? [])];
  for (let next = first.body.data?.length ? first.body.next : undefined; next; ) {
    const u = new URL(next);
    const page = await api('GET', u.pathname + u.search);
    if (page.status !== 200) throw new Error(`crawl status: ${page.body?.error ?? page.status}`);
    status = page.body;
    docs.push(...(page.body.data ?? []));
    next = page.body.data?.length ? page.body.next : undefined;
  }
  return { status, docs };
}

/**
 * Writes `text` to `path` through a temporary file and a rename, so a process killed mid-write
 * leaves either the old file or the whole new one: a resume then neither skips a truncated page
 * nor fails on a half-written state file.
 */
function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The recorded crawl of a directory (`{ id, url }`), or undefined when the state file is unreadable. */
function readState(path: string): { id?: unknown; url?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Runs or resumes a crawl into `out.dir`.
 * @param body the crawl request (`url`, `limit`, options)
 * @returns exit code: 0 completed, 1 failed or cancelled
 * @throws Error with the API's message when the crawl cannot start
 */
export async function crawlToDir(api: ApiCaller, body: Record<string, unknown>, out: CrawlOutput): Promise<number> {
  mkdirSync(out.dir, { recursive: true });
  const statePath = join(out.dir, STATE);
  let id: string | undefined;
  if (existsSync(statePath)) {
    const state = readState(statePath);
    const recorded = state?.url === body.url && typeof state?.id === 'string' ? state.id : undefined;
    const known = recorded ? await api('GET', `/v2/crawl/${recorded}?limit=1`) : undefined;
    if (known?.status === 200) id = recorded;
  }
  if (id) out.progress.write(`Resuming crawl ${id}\n`);
  else {
    const started = await api('POST', '/v2/crawl', body);
    if (started.status !== 200) throw new Error(started.body?.error ?? `HTTP ${started.status}`);
    id = started.body.id as string;
    writeAtomic(statePath, JSON.stringify({ id, url: body.url }));
    out.progress.write(`Started crawl ${id}\n`);
  }
  const tty = Boolean(out.progress.isTTY);
  const bar = tty
    ? new SingleBar({ format: 'crawl [{bar}] {value}/{total} pages | {rate} pages/s | {errors} errors', stream: out.progress as NodeJS.WriteStream, hideCursor: true })
    : undefined;
  const t0 = Date.now();
  let written = 0;
  let seen = 0;
  bar?.start(1, 0, { rate: '0.0', errors: 0 });
  for (;;) {
    const { status, docs } = await pagesAfter(api, id, seen);
    seen += docs.length;
    for (const doc of docs) {
      const url = doc.metadata?.sourceURL ?? doc.metadata?.url;
      if (!url) continue;
      const file = join(out.dir, pageFile(url));
      if (existsSync(file)) continue;
      writeAtomic(file, doc.markdown ?? doc.html ?? JSON.stringify(doc, null, 2));
      written++;
      if (!tty) out.progress.write(`page ${status.completed}/${status.total} ${url} -> ${pageFile(url)}\n`);
    }
    const errors = status.total && status.status !== 'scraping' ? Math.max(0, status.total - status.completed) : 0;
    const rate = (status.completed / Math.max(1, (Date.now() - t0) / 1000)).toFixed(1);
    bar?.setTotal(Math.max(1, status.total));
    bar?.update(status.completed, { rate, errors });
    if (status.status !== 'scraping') {
      bar?.stop();
      out.progress.write(`crawl ${status.status}: ${status.completed}/${status.total} pages, ${written} files written to ${out.dir}\n`);
      return status.status === 'completed' ? 0 : 1;
    }
    await Bun.sleep(out.pollMs ?? 500);
  }
}
