/**
 * A lock file that keeps two processes from opening the same embedded database directory: PGlite does
 * not notice a second process, and two writers corrupt the data. The file holds the owner's pid and
 * host name; a lock whose owner is gone (or lived on another host or container) is taken over.
 */
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

interface LockOwner {
  pid: number;
  host: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/** Lock paths this process holds (a pid check cannot tell our own lock from a stale one of pid reuse). */
const held = new Set<string>();

/**
 * Takes the lock at `path`.
 * @returns a function releasing it (idempotent)
 * @throws Error naming the process that holds the lock when it is alive on this host
 */
export function acquireDirLock(path: string, what: string): () => void {
  const me: LockOwner = { pid: process.pid, host: hostname() };
  if (held.has(path)) throw new Error(`${what} is already open in this process (pid ${me.pid}).`);
  for (let attempt = 0; attempt < 2; attempt++) {
    const tmp = `${path}.${me.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(me));
      linkSync(tmp, path); // atomic, fails when the lock exists; never exposes a half-written file
      held.add(path);
      return () => {
        if (!held.delete(path)) return;
        if (readOwner(path)?.pid === me.pid) rmSync(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      rmSync(tmp, { force: true });
    }
    const owner = readOwner(path);
    if (owner && owner.host === me.host && owner.pid !== me.pid && alive(owner.pid)) {
      throw new Error(
        `${what} is in use by process ${owner.pid}. Stop that process, or set DATABASE_URL to share a PostgreSQL server between processes.`,
      );
    }
    rmSync(path, { force: true }); // stale: its owner is gone
  }
  throw new Error(`Could not lock ${what} (${path})`);
}
