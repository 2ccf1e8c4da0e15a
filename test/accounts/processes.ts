/**
 * Trawl as separate processes for the accounts tests: `bun bin/trawl.ts <mode>` with a given
 * environment, its JSON log lines collected, ready once it logs that it listens (api, serve) or
 * started (worker).
 */
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Subprocess } from 'bun';

const ROOT = join(import.meta.dir, '..', '..');

export interface TrawlProcess {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>;
  /** Listening port (api, serve). */
  port?: number;
  base?: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `trawl <mode>` and waits until it is ready (at most 30 s).
 * @param env added to a minimal environment (PATH, HOME); PORT 0 and HOST 127.0.0.1 by default
 */
export async function spawnTrawl(mode: 'serve' | 'api' | 'worker', env: Record<string, string>): Promise<TrawlProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-proc-'));
  const proc = Bun.spawn([process.execPath, join(ROOT, 'bin', 'trawl.ts'), mode], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      HOST: '127.0.0.1',
      TRAWL_DATA_DIR: dataDir,
      TRAWL_ALLOW_PRIVATE_TARGETS: 'true',
      TRAWL_LOG_LEVEL: 'info',
      ...env,
    },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let text = '';
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  };
  void pump(proc.stdout);
  void pump(proc.stderr);
  const ready = mode === 'worker' ? /"msg":"trawl started"/ : /"msg":"trawl listening"/;
  const deadline = Date.now() + 30_000;
  while (!ready.test(text)) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`trawl ${mode} did not start:\n${text.slice(-4000)}`);
    }
    await Bun.sleep(50);
  }
  const listening = text.split('\n').find((l) => l.includes('"msg":"trawl listening"'));
  const port = listening ? Number(listening.match(/"port":(\d+)/)?.[1]) : undefined;
  return {
    proc,
    port,
    base: port ? `http://127.0.0.1:${port}` : undefined,
    output: () => text,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        await proc.exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
