/**
 * The `trawl teams ...` and `trawl keys ...` commands of the binary (issue 7 scope 1), run as
 * separate processes against a fresh Postgres database: a key is printed once and never listed,
 * restrictions show a Restricted badge, credit changes are recorded in the ledger, revoked keys drop
 * out of the list, and mistakes exit non-zero with a message saying what to do (one through the
 * process, the rest through the same command runner in this test process, which is quicker).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createTestDatabaseConfig, type TestDatabaseConfig } from '../helpers/db.ts';
import { openDatabase, type Database } from '../../core/db/client.ts';
import { silentLogger } from '../../core/log.ts';
import { spawnTrawl } from './processes.ts';
import { runAdmin } from '../../core/admin/cli.ts';
import { registryFor } from '../../core/external-plugins.ts';

const BIN = join(import.meta.dir, '..', '..', 'bin', 'trawl.ts');
let created: TestDatabaseConfig;
let db: Database;

async function trawl(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([process.execPath, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DATABASE_URL: created.config.databaseUrl!, TRAWL_LOG_LEVEL: 'warn', TRAWL_DATA_DIR: created.config.dataDir },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

beforeAll(async () => {
  created = await createTestDatabaseConfig('postgres', { migrated: true });
  db = await openDatabase(created.config, silentLogger);
});

afterAll(async () => {
  await db?.close();
  await created?.cleanup();
});

test('teams and keys from create to revoke', async () => {
  const team = await trawl('teams', 'create', 'acme', '--credits', '50', '--concurrency', '3');
  expect(team.code).toBe(0);
  const teamId = team.out.split(/\s+/)[0];
  expect(team.out).toContain('acme  credits=50  concurrency=3  zdr=off  keys=0');

  const made = await trawl('keys', 'create', '--team', 'acme', '--name', 'ci', '--formats', 'markdown,links');
  expect(made.code).toBe(0);
  const key = made.out.match(/fc-[0-9a-f]{32}/)![0];
  expect(made.out).toContain('shown once');
  const keyId = made.out.match(/Created key (\S+)/)![1];

  const list = await trawl('keys', 'list');
  expect(list.code).toBe(0);
  expect(list.out).toContain(`${key.slice(0, 8)}...`);
  expect(list.out).not.toContain(key);
  expect(list.out).toContain('[Restricted] formats=markdown,links endpoints=*');

  const restricted = await trawl('keys', 'restrict', key.slice(0, 12), '--endpoints', 'scrape,search');
  expect(restricted.code).toBe(0);
  expect(restricted.out).toContain('formats=markdown,links endpoints=scrape,search');
  const lifted = await trawl('keys', 'restrict', keyId, '--formats', '', '--endpoints', '');
  expect(lifted.out).toContain('unrestricted');
  const rows = await db.query<{ allowed_formats: string[]; allowed_endpoints: string[] }>('select allowed_formats, allowed_endpoints from api_keys where id = $1', [keyId]);
  expect(rows[0]).toEqual({ allowed_formats: [], allowed_endpoints: [] });

  expect((await trawl('teams', 'credits', 'acme', '--add', '25')).out).toBe('acme: 75 credits\n');
  expect((await trawl('teams', 'credits', teamId, '--set', '10')).out).toBe('acme: 10 credits\n');
  expect((await trawl('teams', 'credits', 'acme')).out).toBe('acme: 10 credits\n');
  const ledger = await db.query<{ kind: string; delta: number }>('select kind, delta from credit_ledger where team_id = $1 order by created_at', [teamId]);
  expect(ledger.map((r) => [r.kind, Number(r.delta)])).toEqual([['grant', 25], ['set', -65]]);

  const updated = await trawl('teams', 'update', 'acme', '--concurrency', '6', '--zdr', 'on');
  expect(updated.out).toContain('concurrency=6  zdr=on  keys=1');
  const teams = JSON.parse((await trawl('teams', 'list', '--json')).out);
  expect(teams.find((t: any) => t.name === 'acme')).toMatchObject({ id: teamId, credits: 10, concurrency: 6, zdrEnabled: true, keys: 1 });

  expect((await trawl('keys', 'revoke', keyId)).code).toBe(0);
  expect((await trawl('keys', 'list')).out).not.toContain(keyId);
  expect((await trawl('keys', 'list', '--all')).out).toMatch(new RegExp(`${keyId}.*REVOKED`));
  const revoked = await db.query<{ revoked_at: Date | null }>('select revoked_at from api_keys where id = $1', [keyId]);
  expect(revoked[0].revoked_at).toBeInstanceOf(Date);
}, 120_000); // hang bound: about 15 process starts, slow on a loaded machine

test('mistakes exit non-zero and say what to do', async () => {
  // Through the process once (the exit code of a usage error reaches the shell) ...
  const usage = await trawl('keys', 'explode');
  expect(usage.code).toBe(2);
  expect(usage.err).toContain('trawl keys create');
  // ... the rest in this process: the same command runner bin/admin.ts calls, on the same database
  // (the process boundary of exit codes 0 and 1 is covered by the other two tests).
  const admin = async (...argv: string[]) => {
    let out = '';
    let err = '';
    const code = await runAdmin(argv, db, { out: (t) => (out += t), err: (t) => (err += t), knownFormats: (await registryFor(created.config)).names('format'), defaults: { credits: created.config.team.credits, concurrency: created.config.team.concurrency } });
    return { code, out, err };
  };
  const unknown = await admin('keys', 'create', '--team', 'nobody');
  expect(unknown.code).toBe(1);
  expect(unknown.err).toContain('No team "nobody"');
  expect((await admin('teams', 'create', 'dup')).code).toBe(0);
  const dup = await admin('teams', 'create', 'dup');
  expect(dup.code).toBe(1);
  expect(dup.err).toContain('exists already');
  const badNumber = await admin('teams', 'credits', 'dup', '--add', 'ten');
  expect(badNumber.code).toBe(1);
  expect(badNumber.err).toContain('whole number');
  const usageIn = await admin('keys', 'explode');
  expect(usageIn.code).toBe(2);
  expect(usageIn.err).toContain('trawl keys create');
  const badFlag = await admin('keys', 'list', '--colour');
  expect(badFlag.code).toBe(2);
  const noKey = await admin('keys', 'revoke', 'fc-nothere');
  expect(noKey.code).toBe(1);
  expect(noKey.err).toContain('No key');
}, 120_000); // hang bound: about 15 process starts, slow on a loaded machine

test('commands run against a running server with --server and an admin key', async () => {
  const fresh = await createTestDatabaseConfig('postgres', { migrated: true });
  const server = await spawnTrawl('serve', { DATABASE_URL: fresh.config.databaseUrl! });
  try {
    const adminKey = server.output().match(/fc-[0-9a-f]{32}/)![0];
    const remote = (...args: string[]) => trawl(...args, '--server', server.base!, '--admin-key', adminKey);
    const team = await remote('teams', 'create', 'remote-team', '--credits', '7');
    expect(team.code).toBe(0);
    expect(team.out).toContain('remote-team  credits=7');
    const made = await remote('keys', 'create', '--team', 'remote-team', '--endpoints', 'scrape');
    expect(made.code).toBe(0);
    const key = made.out.match(/fc-[0-9a-f]{32}/)![0];
    // The new key works at once on that server.
    const usage = await fetch(`${server.base}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await usage.json()) as any).data.remainingCredits).toBe(7);
    // Refusals come back with the command's exit code and message.
    const bad = await remote('keys', 'create', '--team', 'nobody');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('No team "nobody"');
    // Only an unrestricted admin key may do this.
    const denied = await trawl('keys', 'list', '--server', server.base!, '--admin-key', key);
    expect(denied.code).toBe(1);
    expect(denied.err).toContain('403');
    const anonymous = await trawl('keys', 'list', '--server', server.base!);
    expect(anonymous.code).toBe(1);
    expect(anonymous.err).toContain('401');
  } finally {
    await server.stop();
    await fresh.cleanup();
  }
}, 120_000); // hang bound: about 15 process starts, slow on a loaded machine
