/**
 * The VM files of docs/ (issue 24 scope 6): the example env file holds only variables Trawl knows,
 * with values its config accepts, and the systemd unit passes `systemd-analyze verify` (no unknown
 * keys or bad values) with its binary and env file pointed at stand-ins.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig, TrawlConfigSchema } from '../../core/config.ts';

const DOCS = resolve(import.meta.dir, '../../docs/systemd');

/** KEY=value lines of an EnvironmentFile (comments and blank lines skipped). */
function envFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2];
  }
  return out;
}

describe('docs/systemd', () => {
  test('trawl.env: known variables, accepted values, commented-out ones known too', () => {
    const text = readFileSync(join(DOCS, 'trawl.env'), 'utf8');
    const env = envFile(text);
    expect(Object.keys(env).length).toBeGreaterThan(5);
    const known = Object.keys(TrawlConfigSchema.properties);
    for (const key of Object.keys(env)) expect(known).toContain(key);
    for (const m of text.matchAll(/^# ([A-Z_][A-Z0-9_]*)=/gm)) expect(known).toContain(m[1]);
    const config = loadConfig({ ...env, TRAWL_DATA_DIR: '/var/lib/trawl' });
    expect(config.host).toBe('127.0.0.1');
    expect(config.metrics.access).toBe('token');
    expect(config.accounts.trustProxy).toBe(true);
  });

  test.skipIf(!Bun.which('systemd-analyze'))('trawl.service passes systemd-analyze verify', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-unit-'));
    try {
      const unit = readFileSync(join(DOCS, 'trawl.service'), 'utf8');
      expect(unit).toContain('ExecStart=/usr/local/bin/trawl serve');
      expect(unit).toContain('EnvironmentFile=/etc/trawl/trawl.env');
      const standIn = unit.replace(/^ExecStart=.*$/m, 'ExecStart=/usr/bin/true serve').replace(/^EnvironmentFile=.*$/m, `EnvironmentFile=${join(DOCS, 'trawl.env')}`);
      writeFileSync(join(dir, 'trawl.service'), standIn);
      const out = Bun.spawnSync(['systemd-analyze', 'verify', '--man=no', join(dir, 'trawl.service')], { stdout: 'pipe', stderr: 'pipe' });
      expect(out.stderr.toString()).toBe('');
      expect(out.exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
