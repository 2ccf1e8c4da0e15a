/**
 * Builds the single executable `dist/trawl` with `bun build --compile`. Assets (WASM, language data,
 * Swagger UI, migrations) are embedded through `with { type: 'file' | 'text' }` imports; extra worker
 * entrypoints are listed here so they land inside the binary too. The pre-initialised, migrated
 * embedded database (core/db/template.ts) is made first and embedded as a file entrypoint, so a first
 * start on an empty data directory skips initdb and the migrations.
 *
 * Usage: bun bin/build.ts [--outfile dist/trawl]
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createMigratedTemplate, TEMPLATE_FILE } from '../core/db/template.ts';

const args = process.argv.slice(2);
const outfile = args[args.indexOf('--outfile') + 1] && args.includes('--outfile') ? args[args.indexOf('--outfile') + 1] : 'dist/trawl';

/** Worker scripts that run in their own thread and must be bundled as separate entrypoints. */
const WORKER_ENTRYPOINTS = ['core/db/pglite-worker.ts', 'core/pipeline/content-worker.ts', 'parsers/pdf/worker.ts', 'parsers/ocr/worker.ts'].filter((p) => existsSync(p));

// Under dist/ (inside the checkout) so the entries' common root, and with it the workers' embedded
// paths, stays the checkout; one directory per build so concurrent builds do not share the file.
const scratch = join('dist', `.build-${process.pid}`);
mkdirSync(scratch, { recursive: true });
const template = join(scratch, TEMPLATE_FILE);
await Bun.write(template, await createMigratedTemplate());

const cmd = [
  'bun', 'build', '--compile', '--minify-syntax', '--sourcemap=none',
  '--asset-naming=[name].[ext]',
  'bin/trawl.ts', ...WORKER_ENTRYPOINTS, template,
  '--outfile', outfile,
];
const proc = Bun.spawnSync(cmd, { stdout: 'inherit', stderr: 'inherit' });
rmSync(scratch, { recursive: true, force: true });
process.exit(proc.exitCode ?? 1);
