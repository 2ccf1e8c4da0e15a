/**
 * Soak (issue 3 "Done when"): 300 browser scrapes through the HTTP API, 8 at a time, on a pool of two
 * browsers. Every request is answered with the right page, the memory of Trawl plus its Chromium
 * processes comes back within 20% of where it started (measured after a warm-up, when the pool is
 * running), and no Chromium process is left once Trawl stops.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { startSite, type Site } from './site.ts';
import { chromiumPids, startOn, type TestTrawl } from './helpers.ts';

setDefaultTimeout(240_000);

const TOTAL = 300;
const PARALLEL = 8;

let site: Site;
let trawl: TestTrawl;

beforeAll(async () => {
  site = startSite();
  trawl = await startOn({ TRAWL_BROWSER_POOL_SIZE: '2', TRAWL_WORKER_CONCURRENCY: '8', TRAWL_TEAM_CONCURRENCY: '16' });
}, 120_000);

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
}, 60_000);

/** Pids of `root` and every process below it. */
function tree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  return out;
}

/** Resident memory of this process and its children (Chromium), bytes. */
function rssBytes(): { own: number; children: number } {
  const pages = (pid: number) => {
    try {
      return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
    } catch {
      return 0;
    }
  };
  const [self, ...rest] = tree(process.pid);
  return { own: pages(self!), children: rest.reduce((s, p) => s + pages(p), 0) };
}

/** One browser scrape of page `i` (a rotation of browser-only requests); returns the check result. */
async function scrapeOne(i: number): Promise<string | undefined> {
  const kind = i % 3;
  const body =
    kind === 0
      ? { url: site.url(`/js?soak=${i}`), maxAge: 0 }
      : kind === 1
        ? { url: site.url(`/article?soak=${i}`), mobile: true, maxAge: 0 }
        : { url: site.url(`/form?soak=${i}`), maxAge: 0, actions: [{ type: 'click', selector: '.inc' }, { type: 'executeJavascript', script: 'count.textContent' }] };
  const res = await trawl.post('/v2/scrape', body);
  if (res.status !== 200) return `#${i}: HTTP ${res.status} ${res.text.slice(0, 200)}`;
  const md: string = res.body.data.markdown;
  const ok = kind === 0 ? md.includes('Rendered in the browser') : kind === 1 ? md.includes('Spring tides') : res.body.data.actions.javascriptReturns[0].value === '1';
  return ok ? undefined : `#${i}: unexpected content`;
}

async function run(from: number, count: number): Promise<string[]> {
  const failures: string[] = [];
  let next = from;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < from + count) {
        const i = next++;
        const failure = await scrapeOne(i).catch((e) => `#${i}: ${(e as Error).message}`);
        if (failure) failures.push(failure);
      }
    }),
  );
  return failures;
}

async function settledRss() {
  Bun.gc(true);
  await Bun.sleep(1000);
  Bun.gc(true);
  return rssBytes();
}

test(`${TOTAL} browser scrapes, ${PARALLEL} at a time: all answered, memory back, no Chromium left`, async () => {
  expect(await run(-24, 24)).toEqual([]); // warm-up: both browsers launched, code paths loaded
  const start = await settledRss();
  const started = performance.now();
  const failures = await run(0, TOTAL);
  const seconds = (performance.now() - started) / 1000;
  const end = await settledRss();
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  console.log(
    `soak: ${TOTAL} pages in ${seconds.toFixed(1)} s (${(TOTAL / seconds).toFixed(1)} pages/s); ` +
      `RSS trawl ${mb(start.own)} -> ${mb(end.own)} MiB, chromium ${mb(start.children)} -> ${mb(end.children)} MiB`,
  );
  expect(failures).toEqual([]);
  expect(end.own + end.children).toBeLessThanOrEqual((start.own + start.children) * 1.2);
  expect(end.own).toBeLessThanOrEqual(start.own * 1.2);

  const dataDir = trawl.running.services.config.dataDir;
  expect(chromiumPids(dataDir).length).toBeGreaterThan(0);
  await trawl.stop();
  await Bun.sleep(500);
  expect(chromiumPids(dataDir)).toEqual([]);
}, 600_000); // a hang bound: ~45 s on a quiet 2-core box, several times that beside other jobs
