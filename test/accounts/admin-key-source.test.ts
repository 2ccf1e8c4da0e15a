/**
 * The admin key of `trawl keys|teams ... --server <url>` kept off the command line (issue 15 item 15,
 * `ps` shows every argument): read from TRAWL_ADMIN_KEY or from a file (`--key-file`), against a real
 * server; a missing or empty key file is a clear error, not a request without a key.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createTestDatabaseConfig, type TestDatabaseConfig } from '../helpers/db.ts';
import { spawnTrawl, type TrawlProcess } from './processes.ts';

const BIN = join(import.meta.dir, '..', '..', 'bin', 'trawl.ts');
let fresh: TestDatabaseConfig;
let server: TrawlProcess;
let adminKey: string;

async function trawl(env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([process.execPath, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TRAWL_LOG_LEVEL: 'warn', TRAWL_DATA_DIR: mkdtempSync(join(tmpdir(), 'trawl-cli-')), ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

beforeAll(async () => {
  fresh = await createTestDatabaseConfig('postgres', { migrated: true });
  server = await spawnTrawl('serve', { DATABASE_URL: fresh.config.databaseUrl! });
  adminKey = server.output().match(/fc-[0-9a-f]{32}/)![0];
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await fresh?.cleanup();
});

test('the admin key from TRAWL_ADMIN_KEY', async () => {
  const made = await trawl({ TRAWL_ADMIN_KEY: adminKey }, 'teams', 'create', 'env-team', '--server', server.base!);
  expect(made.err).toBe('');
  expect(made.code).toBe(0);
  expect(made.out).toContain('env-team');
}, 60_000);

test('the admin key from a file, whose first line is the key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-key-'));
  writeFileSync(join(dir, 'admin-key'), `${adminKey}\n`, { mode: 0o600 });
  const listed = await trawl({}, 'teams', 'list', '--server', server.base!, '--key-file', join(dir, 'admin-key'));
  expect(listed.code).toBe(0);
  expect(listed.out).toContain('env-team');
  writeFileSync(join(dir, 'empty'), '\n');
  const empty = await trawl({}, 'teams', 'list', '--server', server.base!, '--key-file', join(dir, 'empty'));
  expect(empty.code).toBe(2);
  expect(empty.err).toContain('is empty');
  const missing = await trawl({}, 'teams', 'list', '--server', server.base!, `--key-file=${join(dir, 'nope')}`);
  expect(missing.code).toBe(2);
  expect(missing.err).toContain('cannot read the key file');
}, 60_000);
