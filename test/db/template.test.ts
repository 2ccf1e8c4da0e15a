/**
 * The pre-initialised embedded database the binary ships (core/db/template.ts, issue 22 scope 3):
 * the migrated template seeds an empty data directory through `openDatabase` (in the database
 * thread, as `trawl serve` opens it), every migration is recorded so none runs again, the schema is
 * usable, and a directory that already holds a database keeps its data. The unpacking
 * (core/db/extract-template.ts) keeps every entry inside the directory and leaves no staging copy.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTar } from 'nanotar';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { openDatabase } from '../../core/db/client.ts';
import { migrations } from '../../core/db/migrations/index.ts';
import { createMigratedTemplate } from '../../core/db/template.ts';
import { extractTemplate } from '../../core/db/extract-template.ts';

let template: Blob;
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'trawl-template-'));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  template = await createMigratedTemplate();
}, 120_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('embedded database template', () => {
  test('seeds an empty data directory with every migration applied; a restart keeps the data', async () => {
    const dataDir = tmp();
    const config = loadConfig({ TRAWL_DATA_DIR: dataDir });
    const db = await openDatabase(config, silentLogger, { pgliteTemplate: template });
    try {
      const applied = await db.query<{ name: string }>('select name from trawl_migrations order by name');
      expect(applied.map((r) => r.name)).toEqual(migrations.map((m) => m.name).sort());
      await db.query(`insert into teams (id, name, credits, concurrency) values ('t-template', 'seeded', 1, 1)`);
    } finally {
      await db.close();
    }
    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(readdirSync(dataDir).filter((f) => f.includes('.template-'))).toEqual([]);

    // Opened again with the template: the existing database is used, not replaced.
    const again = await openDatabase(config, silentLogger, { pgliteTemplate: template });
    try {
      expect(await again.query<{ name: string }>(`select name from teams where id = 't-template'`)).toEqual([{ name: 'seeded' }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  test('entries naming parent directories stay inside the data directory; no staging directory is left', async () => {
    const parent = tmp();
    const dir = join(parent, 'pg');
    await extractTemplate(new Blob([<Uint8Array<ArrayBuffer>>createTar([{ name: 'PG_VERSION', data: '18' }, { name: '../escape', data: 'x' }, { name: '/base/../../up', data: 'y' }])]), dir);
    expect(readdirSync(parent)).toEqual(['pg']);
    expect(readdirSync(dir).sort()).toEqual(['PG_VERSION', 'escape', 'up']);
  });
});
