/**
 * `trawl teams ...` and `trawl keys ...`: opens the database named by the configuration (DATABASE_URL,
 * or the embedded one in TRAWL_DATA_DIR) and runs the admin command of core/admin/cli.ts. The
 * embedded database can be open in one process only; while a server runs on it, send the command to
 * that server instead: `--server <url>` (POST /admin/commands) with the admin key from TRAWL_ADMIN_KEY,
 * from a file (`--key-file <path>`), or `--admin-key <key>` (visible to every user in `ps`).
 */
import { readFileSync } from 'node:fs';
import type { ResolvedConfig } from '../core/config.ts';
import type { Logger } from '../core/log.ts';
import { openDatabase } from '../core/db/client.ts';
import { registryFor } from '../core/external-plugins.ts';
import { ADMIN_USAGE, runAdmin } from '../core/admin/cli.ts';

const REMOTE_USAGE = `
Against a running server (needed while it holds the embedded database), with the admin key in
TRAWL_ADMIN_KEY or in a file (--admin-key <key> works too, but every user sees it in ps):
  TRAWL_ADMIN_KEY=<admin key> trawl keys list --server http://127.0.0.1:3002
  trawl keys list --server http://127.0.0.1:3002 --key-file /run/secrets/trawl-admin-key`;

const FLAGS = ['--server', '--admin-key', '--key-file', '--admin-key-file'];

/**
 * Takes `--server <url>`, `--admin-key <key>` and `--key-file <path>` (alias `--admin-key-file`) out of
 * argv; the key comes from the flag, else the file (first line, trimmed), else TRAWL_ADMIN_KEY.
 * @throws Error when the key file cannot be read or is empty
 */
export function splitRemote(argv: string[], envKey?: string): { server?: string; adminKey?: string; args: string[] } {
  const args: string[] = [];
  const found: Record<string, string | undefined> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (FLAGS.includes(flag)) found[flag === '--admin-key-file' ? '--key-file' : flag] = inline ?? argv[++i];
    else args.push(a);
  }
  let adminKey = found['--admin-key'];
  const file = found['--key-file'];
  if (adminKey === undefined && file !== undefined) {
    try {
      adminKey = readFileSync(file, 'utf8').split(/\r?\n/)[0]!.trim();
    } catch (e) {
      throw new Error(`cannot read the key file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (!adminKey) throw new Error(`the key file ${file} is empty`);
  }
  return { server: found['--server'], adminKey: adminKey ?? envKey, args };
}

async function runRemote(server: string, adminKey: string | undefined, args: string[]): Promise<number> {
  const res = await fetch(`${server.replace(/\/+$/, '')}/admin/commands`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(adminKey ? { authorization: `Bearer ${adminKey}` } : {}) },
    body: JSON.stringify({ args }),
  }).catch((e: Error) => e);
  if (res instanceof Error) {
    process.stderr.write(`trawl: cannot reach ${server}: ${res.message}\n`);
    return 1;
  }
  const body = (await res.json().catch(() => ({}))) as { code?: number; out?: string; err?: string; error?: string };
  if (res.status !== 200) {
    process.stderr.write(`trawl: ${server} answered ${res.status}: ${body.error ?? 'no details'}\n`);
    return 1;
  }
  process.stdout.write(body.out ?? '');
  process.stderr.write(body.err ?? '');
  return body.code ?? 1;
}

/** Runs an admin command; returns the exit code. */
export async function adminMain(argv: string[], config: ResolvedConfig, log: Logger): Promise<number> {
  let remote: ReturnType<typeof splitRemote>;
  try {
    remote = splitRemote(argv, config.adminKey);
  } catch (e) {
    process.stderr.write(`trawl: ${(e as Error).message}\n`);
    return 2;
  }
  const { server, adminKey, args } = remote;
  if (args.length < 2 || args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${ADMIN_USAGE}\n${REMOTE_USAGE}\n`);
    return args.length < 2 ? 2 : 0;
  }
  if (server) return runRemote(server, adminKey, args);
  let db;
  try {
    db = await openDatabase(config, log);
  } catch (e) {
    process.stderr.write(`trawl: ${(e as Error).message}\n${REMOTE_USAGE}\n`);
    return 1;
  }
  try {
    return await runAdmin(args, db, {
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
      // External formats too, so a key may be restricted to a plugin's format (docs/plugins.md).
      knownFormats: (await registryFor(config)).names('format'),
      defaults: { credits: config.team.credits, concurrency: config.team.concurrency },
      legacyWebhookSecret: config.webhookSecret,
    });
  } finally {
    await db.close();
  }
}
