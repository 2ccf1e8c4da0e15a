/**
 * A real distributed Trawl for tests: its own redis-server (no persistence, so a restart loses the
 * queue), a fresh PostgreSQL database, one `api` process and N `worker` processes of bin/trawl.ts.
 * Processes can be killed (SIGKILL) and Redis restarted on the same port, as in production faults.
 */
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { createTestDatabaseConfig } from '../helpers/db.ts';

const ROOT = join(import.meta.dir, '..', '..');

/** A free TCP port on 127.0.0.1. */
export function freePort(): number {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
  const port = s.port!;
  s.stop(true);
  return port;
}

export interface RedisServer {
  url: string;
  /** Stops it (SIGKILL: nothing is saved) and starts an empty one on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function waitForRedis(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const p = Bun.spawn(['redis-cli', '-p', String(port), 'ping'], { stdout: 'pipe', stderr: 'ignore' });
    if ((await new Response(p.stdout).text()).trim() === 'PONG') return;
    await Bun.sleep(50);
  }
  throw new Error(`redis on ${port} did not start`);
}

/** Starts a private redis-server without persistence. */
export async function startRedis(): Promise<RedisServer> {
  const port = freePort();
  let proc: Subprocess;
  const spawn = async () => {
    proc = Bun.spawn(['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdout: 'ignore', stderr: 'ignore' });
    await waitForRedis(port);
  };
  await spawn();
  const kill = async () => {
    proc.kill('SIGKILL');
    await proc.exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await kill();
      await spawn();
    },
    stop: kill,
  };
}

export interface Cluster {
  base: string;
  /** The PostgreSQL database the processes share. */
  databaseUrl: string;
  redis: RedisServer;
  workers: Subprocess[];
  /** SIGKILLs worker `i`. */
  killWorker(i: number): Promise<void>;
  /** Starts one more worker process (appended to `workers`). */
  startWorker(): Subprocess;
  /** Path of the log file of all processes. */
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Starts Redis, a fresh Postgres database, the api and `workers` worker processes.
 * @param env extra environment for every process
 */
export async function startCluster(workers: number, env: Record<string, string> = {}): Promise<Cluster> {
  const redis = await startRedis();
  const db = await createTestDatabaseConfig('postgres', { migrated: true });
  const dir = mkdtempSync(join(tmpdir(), 'trawl-cluster-'));
  const logFile = join(dir, 'processes.log');
  const out = openSync(logFile, 'a');
  const port = freePort();
  const common: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    DATABASE_URL: db.config.databaseUrl!,
    REDIS_URL: redis.url,
    TRAWL_AUTH: 'off',
    TRAWL_ALLOW_PRIVATE_TARGETS: 'true',
    TRAWL_LOG_LEVEL: process.env.TRAWL_TEST_LOG ?? 'warn',
    HOST: '127.0.0.1',
    ...env,
  };
  const spawn = (mode: string, extra: Record<string, string>) =>
    Bun.spawn(['bun', join(ROOT, 'bin/trawl.ts'), mode], { cwd: dir, env: { ...common, ...extra }, stdout: out, stderr: out });
  // Migrate once first so the processes do not race on an empty database.
  const migrate = spawn('migrate', { TRAWL_DATA_DIR: join(dir, 'migrate') });
  if ((await migrate.exited) !== 0) throw new Error(`migrate failed; see ${logFile}`);
  const api = spawn('api', { PORT: String(port), TRAWL_DATA_DIR: join(dir, 'api') });
  const procs = Array.from({ length: workers }, (_, i) => spawn('worker', { PORT: String(freePort()), TRAWL_DATA_DIR: join(dir, `worker-${i}`) }));
  const base = `http://127.0.0.1:${port}`;
  // Hang bound 120 s: on a loaded machine a bun process can take a minute to start.
  for (const until = Date.now() + 120_000; ; ) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {}
    if (Date.now() > until) {
      // Nothing is left running when the cluster never came up (the caller gets no handle to stop).
      for (const p of [api, ...procs]) p.kill('SIGKILL');
      await redis.stop();
      await db.cleanup().catch(() => {});
      throw new Error(`api did not start; see ${logFile}`);
    }
    await Bun.sleep(100);
  }
  return {
    base,
    databaseUrl: db.config.databaseUrl!,
    redis,
    workers: procs,
    logFile,
    async killWorker(i) {
      procs[i].kill('SIGKILL');
      await procs[i].exited;
    },
    startWorker() {
      const p = spawn('worker', { PORT: String(freePort()), TRAWL_DATA_DIR: join(dir, `worker-${procs.length}`) });
      procs.push(p);
      return p;
    },
    async stop() {
      for (const p of [api, ...procs]) p.kill('SIGTERM');
      await Promise.race([Promise.all([api, ...procs].map((p) => p.exited)), Bun.sleep(15_000)]);
      for (const p of [api, ...procs]) if (p.exitCode === null) p.kill('SIGKILL');
      await redis.stop();
      await db.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
