/**
 * Builds the single executable `dist/trawl` with `bun build --compile`. Assets (WASM, language data,
 * Swagger UI, migrations) are embedded through `with { type: 'file' | 'text' }` imports; extra worker
 * entrypoints are listed here so they land inside the binary too.
 *
 * Usage: bun bin/build.ts [--outfile dist/trawl]
 */
import { existsSync } from 'node:fs';

const args = process.argv.slice(2);
const outfile = args[args.indexOf('--outfile') + 1] && args.includes('--outfile') ? args[args.indexOf('--outfile') + 1] : 'dist/trawl';

/** Worker scripts that run in their own thread and must be bundled as separate entrypoints. */
const WORKER_ENTRYPOINTS = ['core/db/pglite-worker.ts', 'core/pipeline/content-worker.ts', 'parsers/pdf/worker.ts', 'parsers/ocr/worker.ts'].filter((p) => existsSync(p));

const cmd = [
  'bun', 'build', '--compile', '--minify-syntax', '--sourcemap=none',
  '--asset-naming=[name].[ext]',
  'bin/trawl.ts', ...WORKER_ENTRYPOINTS,
  '--outfile', outfile,
];
const proc = Bun.spawnSync(cmd, { stdout: 'inherit', stderr: 'inherit' });
process.exit(proc.exitCode ?? 1);
