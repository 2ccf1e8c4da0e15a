/**
 * Real proxies for the proxy tests, started by the tests as the current user in the foreground on
 * free ports and killed afterwards: `tinyproxy` (HTTP, with basic auth, adding a `Via` header that
 * names it) and `microsocks` (SOCKS5 with a user and password, binding its outgoing connections to
 * 127.0.0.2 so the fixture site can tell its visitors apart). Debian packages: tinyproxy, microsocks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './site.ts';

export interface RunningProxy {
  port: number;
  /** Proxy URL with credentials. */
  url: string;
  stop(): Promise<void>;
}

/** Name tinyproxy puts in its Via header. */
export const VIA_NAME = 'trawl-test-tinyproxy';

async function waitForPort(port: number, proc: ReturnType<typeof Bun.spawn>, name: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}`);
    const ok = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } }).then(
      (s) => (s.end(), true),
      () => false,
    );
    if (ok) return;
    await Bun.sleep(50);
  }
  throw new Error(`${name} did not listen on ${port}`);
}

async function stopProcess(proc: ReturnType<typeof Bun.spawn>): Promise<void> {
  if (proc.exitCode !== null) return;
  proc.kill('SIGTERM');
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(3000).then(() => false)]);
  if (!exited) proc.kill('SIGKILL');
}

/** Starts tinyproxy requiring `user:password`. */
export async function startTinyproxy(user = 'alice', password = 's3cret'): Promise<RunningProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-tinyproxy-'));
  const port = freePort();
  const conf = join(dir, 'tinyproxy.conf');
  writeFileSync(
    conf,
    [`Port ${port}`, 'Listen 127.0.0.1', 'Timeout 30', 'MaxClients 100', `BasicAuth ${user} ${password}`, `ViaProxyName "${VIA_NAME}"`, 'LogLevel Critical'].join('\n') + '\n',
  );
  const proc = Bun.spawn(['tinyproxy', '-d', '-c', conf], { stdout: 'ignore', stderr: 'ignore' });
  await waitForPort(port, proc, 'tinyproxy');
  return {
    port,
    url: `http://${user}:${password}@127.0.0.1:${port}`,
    async stop() {
      await stopProcess(proc);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts microsocks requiring `user:password`, connecting out from 127.0.0.2. */
export async function startMicrosocks(user = 'bob', password = 'hunter2'): Promise<RunningProxy> {
  const port = freePort();
  const proc = Bun.spawn(['microsocks', '-i', '127.0.0.1', '-p', String(port), '-u', user, '-P', password, '-b', '127.0.0.2'], {
    stdout: 'ignore',
    stderr: 'ignore',
  });
  await waitForPort(port, proc, 'microsocks');
  return { port, url: `socks5://${user}:${password}@127.0.0.1:${port}`, stop: () => stopProcess(proc) };
}
