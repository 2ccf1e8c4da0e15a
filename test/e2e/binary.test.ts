/**
 * The compiled executable: `bun bin/build.ts` produces one file that runs from another directory with
 * the checkout's node_modules hidden (a private mount namespace bind-mounts an empty directory over
 * it, so baked-in build paths cannot be used by accident). Smoke-tested on the embedded default, and
 * with DATABASE_URL + REDIS_URL as separate `api` and `worker` processes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { createTestDatabaseConfig } from '../helpers/db.ts';
import { compiledBinary } from '../helpers/binary.ts';

const ROOT = resolve(import.meta.dir, '../..');
const work = mkdtempSync(join(tmpdir(), 'trawl-bin-'));
const binary = join(work, 'trawl');
const empty = join(work, 'empty');
const canHide = process.getuid?.() === 0 && Bun.which('unshare') !== null;

let site: FixtureSite;
const procs: ReturnType<typeof Bun.spawn>[] = [];

/** Starts the binary in `cwd` with only the given environment (plus PATH), node_modules hidden. */
function run(args: string[], env: Record<string, string>, cwd: string) {
  const cmd = canHide
    ? ['unshare', '-m', 'sh', '-c', `mount --bind "${empty}" "${ROOT}/node_modules" && exec "$0" "$@"`, binary, ...args]
    : [binary, ...args];
  const proc = Bun.spawn(cmd, { cwd, env: { PATH: '/usr/bin:/bin', HOME: cwd, ...env }, stdout: 'pipe', stderr: 'pipe' });
  procs.push(proc);
  return proc;
}

async function waitReady(port: number, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/ready`);
      if (res.status === 200) return;
    } catch {}
    await Bun.sleep(200);
  }
  throw new Error(`trawl on port ${port} was not ready within ${timeoutMs} ms`);
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function smoke(port: number) {
  const res = await fetch(`http://127.0.0.1:${port}/v2/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: site.url('/page'), formats: ['markdown', 'links'] }),
  });
  const body = (await res.json()) as any;
  expect(res.status).toBe(200);
  expect(body.data.markdown).toContain('# Harbour notes');
  expect(body.data.markdown).toContain('Boats leave at dawn');
  expect(body.data.links).toContain(site.url('/next'));
  const bad = await fetch(`http://127.0.0.1:${port}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
  expect(bad.status).toBe(400);
  const docs = await fetch(`http://127.0.0.1:${port}/docs/assets/swagger-ui-bundle.js`);
  expect(docs.status).toBe(200);
}

beforeAll(async () => {
  mkdirSync(empty, { recursive: true });
  site = serveFixtures({
    '/page': '<html><head><title>Harbour</title></head><body><nav><a href="/">Home</a></nav><main><h1>Harbour notes</h1><p>Boats leave at dawn when the tide turns, and come back before the evening wind rises over the dunes.</p><p><a href="/next">Next page</a></p></main></body></html>',
  });
  compiledBinary(work); // `bun bin/build.ts`, shared with plugins-binary.test.ts (test/helpers/binary.ts)
}, 300_000);

afterAll(() => {
  for (const p of procs) p.kill('SIGKILL');
  site?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('dist/trawl', () => {
  test('prints its version', () => {
    const out = Bun.spawnSync([binary, 'version'], { cwd: work });
    expect(out.stdout.toString()).toMatch(/^trawl \d+\.\d+\.\d+/);
  });

  test('refuses bad configuration naming the variable', () => {
    const out = Bun.spawnSync([binary, 'serve'], { cwd: work, env: { PATH: '/usr/bin:/bin', PORT: 'eighty' } });
    expect(out.exitCode).toBe(2);
    expect(out.stderr.toString()).toContain('PORT');
  });

  test('serves the embedded default from another directory', async () => {
    const cwd = join(work, 'embedded');
    mkdirSync(cwd);
    const port = await freePort();
    // One content thread, so the smoke scrape is built by the compiled content worker entrypoint.
    const proc = run(['serve'], { PORT: String(port), HOST: '127.0.0.1', TRAWL_AUTH: 'off', TRAWL_ALLOW_PRIVATE_TARGETS: 'true', TRAWL_LOG_LEVEL: 'warn', TRAWL_CONTENT_THREADS: '1' }, cwd);
    await waitReady(port, 120_000);
    await smoke(port);
    expect(await Bun.file(join(cwd, 'data', 'pg', 'PG_VERSION')).exists()).toBe(true);
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 180_000);

  test('runs api and worker as two processes on Postgres and Redis', async () => {
    const db = await createTestDatabaseConfig('postgres');
    try {
      const port = await freePort();
      const env = {
        DATABASE_URL: db.config.databaseUrl!,
        REDIS_URL: 'redis://127.0.0.1:6379',
        TRAWL_REDIS_PREFIX: `trawl-bin-${process.pid}`,
        TRAWL_AUTH: 'off',
        TRAWL_ALLOW_PRIVATE_TARGETS: 'true',
        TRAWL_LOG_LEVEL: 'warn',
      };
      const cwd = join(work, 'distributed');
      mkdirSync(cwd);
      const migrate = Bun.spawnSync([binary, 'migrate'], { cwd, env: { PATH: '/usr/bin:/bin', ...env } });
      expect(migrate.exitCode).toBe(0);
      const api = run(['api'], { ...env, PORT: String(port), HOST: '127.0.0.1' }, cwd);
      const worker = run(['worker'], env, cwd);
      await waitReady(port, 60_000);
      await smoke(port);
      expect(await Bun.file(join(cwd, 'data', 'pg', 'PG_VERSION')).exists()).toBe(false);
      api.kill('SIGTERM');
      worker.kill('SIGTERM');
      expect(await api.exited).toBe(0);
      expect(await worker.exited).toBe(0);
    } finally {
      await db.cleanup();
    }
  }, 180_000);
});
