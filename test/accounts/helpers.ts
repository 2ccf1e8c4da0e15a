/**
 * Helpers of the accounts tests: a real Trawl on a fresh Postgres database (fast to create, unlike a
 * new embedded data directory), the admin commands run against its database, and teams and keys made
 * through them, exactly as an operator would.
 */
import { createTestDatabaseConfig } from '../helpers/db.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { runAdmin } from '../../core/admin/cli.ts';
import { Registry } from '../../core/registry.ts';

export interface AccountsTrawl extends TestTrawl {
  /** Runs `trawl <argv...>` admin commands against this Trawl's database. */
  admin(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
  /** Creates a team (name made unique) and returns its id. */
  team(opts?: { credits?: number; concurrency?: number; zdr?: boolean }): Promise<string>;
  /** Creates a key for a team (a new team when none is given) and returns the plain key and ids. */
  key(opts?: { team?: string; formats?: string[]; endpoints?: string[]; credits?: number; concurrency?: number; zdr?: boolean }): Promise<{ key: string; id: string; team: string }>;
  /** Bearer header of a key. */
  auth(key: string): Record<string, string>;
  /** Balance of a team. */
  credits(team: string): Promise<number>;
}

let counter = 0;

/**
 * Starts Trawl (`serve` mode) on a new Postgres database.
 * @param env extra environment (rate limits, TRAWL_AUTH_CACHE_MS ...)
 * @param registry the plugins (default the built-in ones)
 */
export async function startAccountsTrawl(env: Record<string, string> = {}, registry = new Registry()): Promise<AccountsTrawl> {
  const created = await createTestDatabaseConfig('postgres', { migrated: true });
  const trawl = await startTrawl({ DATABASE_URL: created.config.databaseUrl!, ...env }, 'serve', registry);
  const db = trawl.running.services.db;
  const admin = async (...argv: string[]) => {
    let out = '';
    let err = '';
    const code = await runAdmin(argv, db, {
      out: (t) => (out += t),
      err: (t) => (err += t),
      knownFormats: registry.names('format'),
      defaults: { credits: 1000, concurrency: 10 },
    });
    return { code, out, err };
  };
  const team: AccountsTrawl['team'] = async (opts = {}) => {
    const name = `team-${process.pid}-${++counter}-${crypto.randomUUID().slice(0, 6)}`;
    const r = await admin('teams', 'create', name, '--credits', String(opts.credits ?? 1000), '--concurrency', String(opts.concurrency ?? 10), '--zdr', opts.zdr ? 'on' : 'off');
    if (r.code !== 0) throw new Error(r.err);
    return r.out.split(/\s+/)[0];
  };
  return {
    ...trawl,
    admin,
    team,
    async key(opts = {}) {
      const t = opts.team ?? (await team(opts));
      const argv = ['keys', 'create', '--team', t];
      if (opts.formats) argv.push('--formats', opts.formats.join(','));
      if (opts.endpoints) argv.push('--endpoints', opts.endpoints.join(','));
      const r = await admin(...argv);
      if (r.code !== 0) throw new Error(r.err);
      const key = r.out.match(/fc-[0-9a-f]{32}/)![0];
      const id = r.out.match(/Created key (\S+)/)![1];
      return { key, id, team: t };
    },
    auth: (key) => ({ authorization: `Bearer ${key}` }),
    async credits(t) {
      const rows = await db.query<{ credits: number }>('select credits from teams where id = $1', [t]);
      return Number(rows[0].credits);
    },
    async stop() {
      await trawl.stop();
      await created.cleanup();
    },
  };
}
