/**
 * The client commands (issue 24 scope 1): `trawl scrape|map|search|crawl` against fixture sites,
 * in-process on a temporary data dir and with `--server`; exit codes and `--help`; crawl progress in
 * plain mode and in a pseudo-terminal (`script`); an interrupted crawl resumed into the same directory.
 * The data directories start with a migrated database (as after a first run), so each command does
 * not run initdb and every migration; test/db/template.test.ts and the e2e binary test cover a first start.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { seedMigratedDataDir } from '../helpers/db.ts';

setDefaultTimeout(180_000);

const BIN = join(import.meta.dir, '../../bin/trawl.ts');
const page = (title: string, links: string[]) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>The ${title} page.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

let site: FixtureSite;
let slow: FixtureSite;
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'trawl-cli-'));
  dirs.push(d);
  return d;
};
let dataDir: string;

beforeAll(async () => {
  site = serveFixtures({ '/': page('Home', ['/a', '/b']), '/a': page('Alpha', ['/']), '/b': page('Beta', ['/a']) });
  // Pages that answer one after another (page i after about i × 700 ms), so a crawl is still running when interrupted.
  const routes: Record<string, any> = {};
  for (let i = 0; i < 8; i++) {
    routes[i === 0 ? '/' : `/p${i}`] = async () => {
      await Bun.sleep(200 + i * 700);
      return new Response(page(`Page ${i}`, i === 0 ? Array.from({ length: 7 }, (_, k) => `/p${k + 1}`) : []), { headers: { 'content-type': 'text/html' } });
    };
  }
  slow = serveFixtures(routes);
  dataDir = await seededDir();
});

/** A data directory whose embedded database exists and is migrated (test/helpers/db.ts), as after a first run. */
async function seededDir(): Promise<string> {
  const d = tmp();
  await seedMigratedDataDir(d);
  return d;
}
afterAll(() => {
  site.stop();
  slow.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR']) if (process.env[k]) env[k] = process.env[k]!;
  return { ...env, TRAWL_DATA_DIR: dataDir, TRAWL_AUTH: 'off', TRAWL_ALLOW_PRIVATE_TARGETS: 'true', ...extra };
}

async function trawl(args: string[], env = baseEnv()): Promise<{ code: number; out: string; err: string }> {
  const p = Bun.spawn([process.execPath, BIN, ...args], { env, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

describe('in-process', () => {
  test('scrape prints markdown; --format links --json; errors and usage', async () => {
    const md = await trawl(['scrape', site.url('/a')]);
    expect(md.code).toBe(0);
    expect(md.out).toContain('# Alpha');
    const links = await trawl(['scrape', site.url('/a'), '--format', 'links']);
    expect(links.out.trim().split('\n')).toContain(site.url('/'));
    const json = await trawl(['scrape', site.url('/b'), '--format', 'markdown', '--format', 'links', '--json']);
    const doc = JSON.parse(json.out);
    expect(doc.markdown).toContain('# Beta');
    expect(doc.links).toContain(site.url('/a'));
    const bad = await trawl(['scrape', 'not a url']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('HTTP 400');
    const usage = await trawl(['scrape']);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('Usage: trawl scrape');
    expect((await trawl(['crawl', site.url('/')])).err).toContain('-o DIR is required');
    expect((await trawl(['map', site.url('/'), '--limit', 'x'])).code).toBe(2);
    for (const cmd of ['scrape', 'map', 'search', 'crawl']) {
      const help = await trawl([cmd, '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toContain(`Usage: trawl ${cmd}`);
    }
  });

  test('map lists URLs; crawl writes one file per page with plain progress lines', async () => {
    const map = await trawl(['map', site.url('/')]);
    expect(map.code).toBe(0);
    expect(map.out.trim().split('\n')).toEqual(expect.arrayContaining([site.url('/a'), site.url('/b')]));
    const out = tmp();
    const crawl = await trawl(['crawl', site.url('/'), '-o', out, '--limit', '10']);
    expect(crawl.code).toBe(0);
    expect(readdirSync(out).filter((f) => f.endsWith('.md')).sort()).toEqual(['a.md', 'b.md', 'index.md']);
    expect(readFileSync(join(out, 'a.md'), 'utf8')).toContain('# Alpha');
    expect(crawl.err.match(/^page \d+\/\d+ /gm)?.length).toBe(3);
    expect(crawl.err).toContain('crawl completed: 3/3 pages, 3 files written');
    expect(crawl.err).not.toContain('\x1b[');
  });

  test('an interrupted in-process crawl resumes on the next run (the queue keeps its jobs)', async () => {
    const out = tmp();
    const env = baseEnv({ TRAWL_DATA_DIR: await seededDir() });
    const args = ['crawl', slow.url('/'), '-o', out, '--limit', '8'];
    const first = Bun.spawn([process.execPath, BIN, ...args], { env, stdout: 'pipe', stderr: 'pipe' });
    const until = Date.now() + 120_000; // hang bound: a loaded machine can take a minute to start a crawl
    while (!existsSync(join(out, '.trawl-crawl.json')) && Date.now() < until) await Bun.sleep(50);
    first.kill('SIGKILL');
    await first.exited;
    const before = readdirSync(out).filter((f) => f.endsWith('.md')).length;
    expect(before).toBeLessThan(8);
    const { id } = JSON.parse(readFileSync(join(out, '.trawl-crawl.json'), 'utf8'));
    const second = await trawl(args, env);
    expect(second.err).toContain(`Resuming crawl ${id}`);
    expect(second.code).toBe(0);
    expect(readdirSync(out).filter((f) => f.endsWith('.md')).length).toBe(8);
  }, 400_000); // generous: the killed process's page jobs run again only once their lease expires

  test('a half-written state file (a run killed while writing it) starts a new crawl instead of failing', async () => {
    const out = tmp();
    writeFileSync(join(out, '.trawl-crawl.json'), '{"id":"');
    const crawl = await trawl(['crawl', site.url('/'), '-o', out, '--limit', '10']);
    expect(crawl.err).toContain('Started crawl');
    expect(crawl.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, '.trawl-crawl.json'), 'utf8')).url).toBe(site.url('/'));
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('progress bar in a pseudo-terminal', async () => {
    if (!Bun.which('script')) return;
    const out = tmp();
    const cmd = [process.execPath, BIN, 'crawl', site.url('/'), '-o', out].map((a) => `'${a}'`).join(' ');
    const p = Bun.spawn(['script', '-qec', cmd, '/dev/null'], { env: baseEnv(), stdout: 'pipe', stderr: 'pipe' });
    const [text, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    expect(code).toBe(0);
    expect(text).toMatch(/crawl \[=+\] 3\/3 pages \| [\d.]+ pages\/s \| 0 errors/);
    expect(text).not.toMatch(/^page \d/m);
  });
});

describe('--server', () => {
  let server: TestTrawl;
  beforeAll(async () => (server = await startTrawl({})));
  afterAll(() => server.stop());
  const remote = (args: string[]) => trawl([...args, '--server', server.base, '--api-key', server.adminKey!], baseEnv({ TRAWL_AUTH: 'keys' }));

  test('scrape, map and search against a server; a wrong key exits 1', async () => {
    expect((await remote(['scrape', site.url('/a')])).out).toContain('# Alpha');
    expect((await remote(['map', site.url('/')])).out).toContain(site.url('/b'));
    const search = await remote(['search', 'Alpha', '--json']);
    expect(search.code).toBe(0);
    expect(JSON.parse(search.out).success).toBe(true);
    const denied = await trawl(['scrape', site.url('/a'), '--server', server.base, '--api-key', 'fc-wrong'], baseEnv());
    expect(denied.code).toBe(1);
    expect(denied.err).toContain('HTTP 401');
  });

  test('an interrupted crawl resumes into the same directory', async () => {
    const out = tmp();
    const args = ['crawl', slow.url('/'), '-o', out, '--limit', '8', '--server', server.base, '--api-key', server.adminKey!];
    const first = Bun.spawn([process.execPath, BIN, ...args], { env: baseEnv(), stdout: 'pipe', stderr: 'pipe' });
    const until = Date.now() + 120_000; // hang bound: a loaded machine can take a minute to start a crawl
    while (!existsSync(join(out, '.trawl-crawl.json')) && Date.now() < until) await Bun.sleep(50);
    first.kill('SIGKILL');
    await first.exited;
    const before = readdirSync(out).filter((f) => f.endsWith('.md')).length;
    expect(before).toBeLessThan(8);
    const { id } = JSON.parse(readFileSync(join(out, '.trawl-crawl.json'), 'utf8'));
    const second = await trawl(args);
    expect(second.code).toBe(0);
    expect(second.err).toContain(`Resuming crawl ${id}`);
    expect(readdirSync(out).filter((f) => f.endsWith('.md')).length).toBe(8);
    expect(second.err).toContain(`${8 - before} files written`);
  });
});
