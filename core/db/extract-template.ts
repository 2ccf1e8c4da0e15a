/**
 * Writes a PGlite data-directory tarball (`pg.dumpDataDir('none')`, e.g. the binary's pre-initialised
 * database, core/db/template.ts) into an empty directory with plain file writes, so PGlite then opens
 * it as an existing database. PGlite's own `loadDataDir` unpacks through its in-memory file system
 * in JavaScript, which on a fresh process (cold JIT, in the database thread) takes seconds for the
 * ~40 MB data directory; this (native gunzip, then file writes) takes tens of ms. The files go to a sibling directory first and are renamed
 * into place, so a start interrupted half way leaves no half-written database behind.
 */
import { existsSync, mkdirSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { parseTar } from 'nanotar';

/**
 * Unpacks `template` (a tar of a data directory, gzipped or not) into `dir`, which must be empty or
 * absent.
 * @throws on an entry that is not a file or directory, or a path leaving `dir`; `dir` is left as it was
 */
export async function extractTemplate(template: Blob, dir: string): Promise<void> {
  let bytes = new Uint8Array(await template.arrayBuffer());
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = Bun.gunzipSync(bytes); // gzip magic: the binary's template
  const items = parseTar(bytes);
  const staging = `${dir}.template-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    mkdirSync(staging, { recursive: true, mode: 0o700 });
    for (const item of items) {
      const rel = normalize(item.name.replace(/^\/+/, ''));
      if (rel === '.' || rel === '') continue;
      if (rel.startsWith('..')) throw new Error(`template entry ${item.name} leaves the data directory`);
      const path = join(staging, rel);
      if (item.type === 'directory') {
        mkdirSync(path, { recursive: true, mode: 0o700 });
      } else if (item.type === 'file' || item.type === undefined) {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        writeFileSync(path, item.data ?? new Uint8Array(0), { mode: 0o600 });
      } else {
        throw new Error(`template entry ${item.name} is a ${item.type}, not a file or directory`);
      }
    }
    if (existsSync(dir)) rmdirSync(dir); // empty: rmdir refuses anything else
    renameSync(staging, dir);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
}
