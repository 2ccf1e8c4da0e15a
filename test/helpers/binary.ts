/**
 * The compiled executable for the e2e tests, built once per source state: `bun bin/build.ts --release`
 * (the binary and its `.sha256`) into `<tmpdir>/trawl-test-binary-<hash>/`, where the hash covers
 * every file of the checkout outside test/ and bench/ (git's tracked and untracked, not ignored), the
 * Bun version and the platform. The tests that need a binary (test/e2e/binary.test.ts,
 * plugins-binary.test.ts) share one build (about a minute of CPU each) instead of building their own.
 * Without git (a source tarball) every call builds afresh.
 */
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const OLD_MS = 24 * 3600_000;

/** A hash of the sources the build reads, or undefined when git cannot list them. */
function sourceHash(): string | undefined {
  const listed = Bun.spawnSync(['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' });
  if (listed.exitCode !== 0) return undefined;
  const h = new Bun.CryptoHasher('sha256');
  h.update(`${Bun.version} ${Bun.revision} ${process.platform} ${process.arch}\0`);
  const files = listed.stdout.toString().split('\0').filter((f) => f && !f.startsWith('test/') && !f.startsWith('bench/')).sort();
  for (const f of files) {
    const path = join(ROOT, f);
    if (!existsSync(path)) continue; // deleted, not yet staged
    h.update(`${f}\0`);
    h.update(readFileSync(path));
  }
  return h.digest('hex').slice(0, 20);
}

function build(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const out = Bun.spawnSync(['bun', 'bin/build.ts', '--release', '--outfile', join(dir, 'trawl')], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  if (out.exitCode !== 0) throw new Error(`build failed: ${out.stderr.toString()}`);
}

/** Removes cached builds not used for a day (other checkouts' recent ones may still be in use). */
function dropOld(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('trawl-test-binary-')) continue;
    const path = join(tmpdir(), name);
    try {
      if (Date.now() - statSync(path).mtimeMs > OLD_MS) rmSync(path, { recursive: true, force: true });
    } catch {}
  }
}

/**
 * Puts the release build of the current sources at `<dir>/trawl` with `<dir>/trawl.sha256` (hard
 * links to the cached build, or a fresh build when there is no cache), building it if needed.
 * @throws Error with the build's stderr when the build fails
 */
export function compiledBinary(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const hash = sourceHash();
  if (!hash) {
    build(dir);
    return join(dir, 'trawl');
  }
  const cache = join(tmpdir(), `trawl-test-binary-${hash}`);
  if (!existsSync(join(cache, 'trawl.sha256'))) {
    dropOld();
    // Built aside and renamed into place: a concurrent run sees a whole build or none.
    const staging = `${cache}.building-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    build(staging);
    try {
      renameSync(staging, cache);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another run got there first
    }
  }
  for (const f of ['trawl', 'trawl.sha256']) {
    rmSync(join(dir, f), { force: true });
    try {
      linkSync(join(cache, f), join(dir, f));
    } catch {
      copyFileSync(join(cache, f), join(dir, f)); // another file system
      if (f === 'trawl') chmodSync(join(dir, f), 0o755);
    }
  }
  return join(dir, 'trawl');
}
