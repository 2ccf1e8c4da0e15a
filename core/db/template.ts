/**
 * The pre-initialised embedded database shipped in the compiled binary (issue 22 scope 3): at build
 * time (bin/build.ts) PGlite's initdb runs once in memory, every migration of core/db/migrations is
 * applied, and the data directory is saved as a gzipped tarball embedded in the binary. A
 * `trawl serve` on an empty data directory then loads that tarball instead of running initdb
 * (seconds, ~1 GB peak) and the migrations; the migrator finds them all recorded. A directory that
 * already holds a database never uses it. Under `bun run` nothing is embedded and the first start
 * runs initdb as before.
 */
import { silentLogger, type Logger } from '../log.ts';
import { migrate, type SqlSession } from './migrate.ts';
import { migrations as allMigrations } from './migrations/index.ts';
import { openPglite } from './pglite.ts';

/** File name of the embedded template (bin/build.ts writes it; `Bun.embeddedFiles` names it so). */
export const TEMPLATE_FILE = 'pglite-template.tar.gz';

/**
 * A fresh, fully migrated data directory as a gzipped tarball (~5 MB; ~40 MB unpacked, mostly an
 * empty WAL segment). Compressed because a compiled binary holds its embedded files in memory on
 * every start; it is unpacked only on the first (core/db/extract-template.ts).
 */
export async function createMigratedTemplate(log: Logger = silentLogger): Promise<Blob> {
  const { pg, close } = await openPglite(undefined);
  try {
    const session: SqlSession = {
      transaction: (fn) =>
        pg.transaction((tx) => fn({ query: async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows, exec: async (text) => void (await tx.exec(text)) })),
    };
    await migrate(session, allMigrations, log);
    return await pg.dumpDataDir('gzip');
  } finally {
    await close();
  }
}

/** The template embedded in the running binary, or undefined (`bun run`, or a binary built without one). */
export function embeddedTemplate(): Blob | undefined {
  const files = (globalThis.Bun?.embeddedFiles ?? []) as (Blob & { name?: string })[];
  return files.find((f) => f.name === TEMPLATE_FILE || f.name?.endsWith(`/${TEMPLATE_FILE}`) || f.name?.startsWith('pglite-template-'));
}
