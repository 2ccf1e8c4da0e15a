/**
 * Builds the single executable `dist/trawl` with `bun build --compile`. Assets (WASM, language data,
 * Swagger UI, the playground, migrations) are embedded through `with { type: 'file' | 'text' }`
 * imports; extra worker entrypoints are listed here so they land inside the binary too. The
 * pre-initialised, migrated embedded database (core/db/template.ts) is made first and embedded as a
 * file entrypoint, so a first start on an empty data directory skips initdb and the migrations.
 *
 * `--release` (`bun run release`) names the binary `dist/trawl-<version>-<os>-<arch>` unless
 * `--outfile` is given, and writes its SHA-256 next to it as `<binary>.sha256` in `sha256sum` format
 * (`<hex>  <file name>`), so `sha256sum -c trawl-….sha256` checks a download (docs/running-on-a-vm.md).
 *
 * Usage: bun bin/build.ts [--outfile dist/trawl] [--release]
 */
import { createReadStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { VERSION } from '../core/version.ts';
import { createMigratedTemplate, TEMPLATE_FILE } from '../core/db/template.ts';

const args = process.argv.slice(2);
const release = args.includes('--release');
const given = args.includes('--outfile') ? args[args.indexOf('--outfile') + 1] : undefined;
const outfile = given ?? (release ? `dist/trawl-${VERSION}-${process.platform}-${process.arch}` : 'dist/trawl');

/** Worker scripts that run in their own thread and must be bundled as separate entrypoints. */
const WORKER_ENTRYPOINTS = ['core/db/pglite-worker.ts', 'core/pipeline/content-worker.ts', 'parsers/pdf/worker.ts', 'parsers/ocr/worker.ts'].filter((p) => existsSync(p));

// Under dist/ (inside the checkout) so the entries' common root, and with it the workers' embedded
// paths, stays the checkout; one directory per build so concurrent builds do not share the file.
const scratch = join('dist', `.build-${process.pid}`);
mkdirSync(scratch, { recursive: true });
const template = join(scratch, TEMPLATE_FILE);
await Bun.write(template, await createMigratedTemplate());

// --bytecode: JavaScriptCore bytecode of the ~22 MB bundle is stored in the binary, so a start does
// not parse it (~420 ms of CPU before the first line of bin/trawl.ts ran, now ~40; bench/startup).
// --no-optimize-bytecode: the build-time passes took the bundle step from ~20 s to ~60 s here and
// gained nothing measurable at start.
const cmd = [
  'bun', 'build', '--compile', '--bytecode', '--no-optimize-bytecode', '--format=esm', '--minify-syntax', '--sourcemap=none',
  '--asset-naming=[name].[ext]',
  'bin/trawl.ts', ...WORKER_ENTRYPOINTS, template,
  '--outfile', outfile,
];
const proc = Bun.spawnSync(cmd, { stdout: 'inherit', stderr: 'inherit' });
rmSync(scratch, { recursive: true, force: true });
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1);

if (release) {
  const hash = createHash('sha256');
  // Streamed: the binary is ~160 MiB.
  for await (const chunk of createReadStream(outfile)) hash.update(chunk as Buffer);
  const line = `${hash.digest('hex')}  ${basename(outfile)}\n`;
  writeFileSync(`${outfile}.sha256`, line);
  process.stdout.write(`release: ${outfile}\nsha256:  ${line}`);
}
process.exit(0);
