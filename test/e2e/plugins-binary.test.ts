/**
 * Plugins without a rebuild and the release build (issue 24 scopes 4 and 6), on the compiled binary:
 * `bun bin/build.ts --release` writes the binary and a SHA-256 file that matches a hash computed
 * here; the binary, run from another directory with the checkout's node_modules hidden, loads the
 * example format and parser (copied out of the checkout, so `trawl/plugin` can only come from the
 * binary itself) and a folder plugin from a temporary plugins directory, lists them with
 * `trawl plugins list` (also when the directory comes from the TRAWL_CONFIG file), uses them through
 * the API (a web page built on a content thread, an iCalendar file), and refuses a broken plugin at
 * startup with a message naming its file and what failed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { CALENDAR } from '../plugins/calendar-fixture.ts';
import { compiledBinary } from '../helpers/binary.ts';

const ROOT = resolve(import.meta.dir, '../..');
const work = mkdtempSync(join(tmpdir(), 'trawl-plugins-bin-'));
const binary = join(work, 'trawl');
const empty = join(work, 'empty');
const plugins = join(work, 'plugins');
const broken = join(work, 'broken');
const canHide = process.getuid?.() === 0 && Bun.which('unshare') !== null;
const procs: ReturnType<typeof Bun.spawn>[] = [];
let site: FixtureSite;

/** The binary in `cwd` with only `env` (plus PATH and HOME), the checkout's node_modules hidden. */
function command(args: string[]): string[] {
  return canHide ? ['unshare', '-m', 'sh', '-c', `mount --bind "${empty}" "${ROOT}/node_modules" && exec "$0" "$@"`, binary, ...args] : [binary, ...args];
}

function runSync(args: string[], env: Record<string, string>, cwd: string) {
  const out = Bun.spawnSync(command(args), { cwd, env: { PATH: '/usr/bin:/bin', HOME: cwd, ...env }, stdout: 'pipe', stderr: 'pipe' });
  return { code: out.exitCode, stdout: out.stdout.toString(), stderr: out.stderr.toString() };
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function waitReady(port: number, proc: ReturnType<typeof Bun.spawn>, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`trawl exited with ${proc.exitCode}: ${await new Response(proc.stderr as ReadableStream).text()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.status === 200, () => false);
    if (ok) return;
    await Bun.sleep(200);
  }
  throw new Error(`trawl on port ${port} was not ready within ${timeoutMs} ms`);
}

async function scrape(port: number, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`http://127.0.0.1:${port}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  mkdirSync(empty, { recursive: true });
  // The examples, outside the checkout, and a folder plugin whose index imports a file next to it.
  mkdirSync(join(plugins, 'shout'), { recursive: true });
  for (const f of ['word-count.ts', 'icalendar.ts']) copyFileSync(join(ROOT, 'examples/plugins', f), join(plugins, f));
  writeFileSync(join(plugins, 'shout', 'upper.ts'), 'export const upper = (s: string): string => s.toUpperCase();\n');
  writeFileSync(join(plugins, 'shout', 'index.ts'), `import { defineFormat } from 'trawl/plugin';\nimport { upper } from './upper.ts';\nexport default defineFormat({ name: 'shout', pure: true, produce: (input) => ({ shout: upper(String(input.parsed.metadata.title ?? '')) }) });\n`);
  mkdirSync(broken);
  writeFileSync(join(broken, 'bad-parser.js'), `export default { kind: 'parser', name: 'bad', accepts: { mime: ['Text/Bad'], ext: [] }, async parse() { return { metadata: {} }; } };\n`);
  site = serveFixtures({
    '/page': '<html><head><title>Harbour</title></head><body><main><h1>Harbour notes</h1><p>Boats leave at dawn when the tide turns.</p></main></body></html>',
    '/events.ics': { body: CALENDAR, headers: { 'content-type': 'text/calendar; charset=utf-8' } },
  });
  compiledBinary(work); // `bun bin/build.ts --release`, shared with binary.test.ts (test/helpers/binary.ts)
}, 300_000);

afterAll(() => {
  for (const p of procs) p.kill('SIGKILL');
  site?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('release build', () => {
  test('writes the binary and its SHA-256 in sha256sum format', async () => {
    const hasher = new Bun.CryptoHasher('sha256');
    hasher.update(await Bun.file(binary).arrayBuffer());
    expect(readFileSync(`${binary}.sha256`, 'utf8')).toBe(`${hasher.digest('hex')}  trawl\n`);
    // And the system's tool agrees, from the binary's folder.
    const check = Bun.spawnSync(['sha256sum', '-c', 'trawl.sha256'], { cwd: work });
    expect(check.stdout.toString()).toBe('trawl: OK\n');
  });
});

describe('external plugins in the compiled binary', () => {
  test('trawl plugins list shows built-in and external plugins with kind and source', () => {
    const cwd = join(work, 'list');
    mkdirSync(cwd);
    const out = runSync(['plugins', 'list'], { TRAWL_PLUGINS_DIR: plugins }, cwd);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const rows = out.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    expect(rows[0]).toEqual(['KIND', 'NAME', 'SOURCE']);
    expect(rows).toContainEqual(['format', 'markdown', 'built-in']);
    expect(rows).toContainEqual(['parser', 'pdf', 'built-in']);
    expect(rows).toContainEqual(['format', 'wordCount', join(plugins, 'word-count.ts')]);
    expect(rows).toContainEqual(['format', 'shout', join(plugins, 'shout', 'index.ts')]);
    expect(rows).toContainEqual(['parser', 'icalendar', join(plugins, 'icalendar.ts')]);
    // The same directory named by the config file, as a list.
    writeFileSync(join(cwd, 'trawl.json'), JSON.stringify({ TRAWL_PLUGINS_DIR: [plugins] }));
    const json = runSync(['plugins', 'list', '--json'], { TRAWL_CONFIG: 'trawl.json' }, cwd);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toContainEqual({ kind: 'parser', name: 'icalendar', source: join(plugins, 'icalendar.ts') });
  }, 60_000);

  test('serve uses the example format and parser through the API', async () => {
    const cwd = join(work, 'serve');
    mkdirSync(cwd);
    const port = await freePort();
    // One content thread: the web page (pure formats only) is built there, with the plugins loaded there too.
    const env = { PATH: '/usr/bin:/bin', HOME: cwd, PORT: String(port), HOST: '127.0.0.1', TRAWL_AUTH: 'off', TRAWL_ALLOW_PRIVATE_TARGETS: 'true', TRAWL_LOG_LEVEL: 'warn', TRAWL_CONTENT_THREADS: '1', TRAWL_PLUGINS_DIR: plugins };
    const proc = Bun.spawn(command(['serve']), { cwd, env, stdout: 'pipe', stderr: 'pipe' });
    procs.push(proc);
    await waitReady(port, proc);
    const page = await scrape(port, { url: site.url('/page'), formats: ['markdown', 'wordCount', 'shout'] });
    expect(page.status).toBe(200);
    expect(page.body.data.markdown).toContain('# Harbour notes');
    expect(page.body.data.wordCount).toEqual({ words: 10, readingMinutes: 1 });
    expect(page.body.data.shout).toBe('HARBOUR');
    const calendar = await scrape(port, { url: site.url('/events.ics'), formats: ['markdown', 'wordCount'] });
    expect(calendar.status).toBe(200);
    expect(calendar.body.data.markdown).toContain('## Regatta');
    expect(calendar.body.data.markdown).toContain('**Where:** Outer harbour, pier 3');
    expect(calendar.body.data.metadata).toMatchObject({ title: 'Harbour events', numEvents: 2, contentType: 'text/calendar; charset=utf-8' });
    expect(calendar.body.data.wordCount.words).toBeGreaterThan(10);
    // An unknown format is still refused by name.
    const unknown = await scrape(port, { url: site.url('/page'), formats: ['wordcount'] });
    expect(unknown.status).toBe(400);
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 180_000);

  test('a broken plugin stops startup with a message naming it and what failed', () => {
    const cwd = join(work, 'broken-run');
    mkdirSync(cwd);
    for (const args of [['serve'], ['plugins', 'list']]) {
      const out = runSync(args, { TRAWL_PLUGINS_DIR: `${plugins},${broken}`, PORT: '0', TRAWL_AUTH: 'off' }, cwd);
      expect(out.code).toBe(2);
      expect(out.stderr).toBe(`trawl: plugin ${join(broken, 'bad-parser.js')} (parser "bad") failed its checks:\n  - accepts.mime: "Text/Bad" must be a lower-case content type\n`);
    }
    // Nothing was started: no data directory was made.
    expect(Bun.spawnSync(['ls', cwd]).stdout.toString()).toBe('');
  }, 60_000);
});
