/**
 * Blob store on the local disk (the default; core/blobs.ts): each blob is a file under
 * `<dataDir>/blobs/<2-char shard>/<key>` with a small JSON sidecar `<key>.json` holding its content type
 * and expiry. Keys are 128 random bits in hex plus an extension from the content type, so they cannot
 * be guessed and are safe as file names. Expired blobs read as missing and are deleted by `sweep()`.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isBlobKey, newBlobKey, type BlobStore } from '../blobs.ts';

const ORPHAN_AGE_MS = 60_000;

interface Sidecar {
  contentType: string;
  /** Epoch ms after which the blob is gone. */
  expiresAt: number;
  size: number;
}

export interface LocalBlobStore extends BlobStore {
  /** Directory holding the blobs. */
  readonly dir: string;
  /**
   * Deletes expired blobs (and orphaned files).
   * @param now epoch ms to compare expiries with (default now)
   * @returns how many blobs were deleted
   */
  sweep(now?: number): Promise<number>;
  /** Deletes one blob; false when it did not exist. */
  delete(key: string): Promise<boolean>;
}

/**
 * Creates a store in `dir` (created on first write).
 * @param dir      usually `<dataDir>/blobs`
 * @param baseUrl  base of public URLs without trailing slash, read at each `url()` call (the public URL
 *                 may only be known per request)
 */
export function createLocalBlobStore(dir: string, baseUrl: () => string): LocalBlobStore {
  const paths = (key: string) => {
    const d = join(dir, key.slice(0, 2));
    return { dir: d, file: join(d, key), meta: join(d, `${key}.json`) };
  };

  async function remove(key: string): Promise<boolean> {
    const p = paths(key);
    const existed = await readFile(p.meta).then(() => true, () => false);
    await Promise.all([rm(p.file, { force: true }), rm(p.meta, { force: true })]);
    return existed;
  }

  return {
    dir,
    async put(bytes, contentType, ttlMs) {
      const type = contentType.split(';')[0]!.trim().toLowerCase();
      const key = newBlobKey(type);
      const p = paths(key);
      await mkdir(p.dir, { recursive: true });
      const sidecar: Sidecar = { contentType, expiresAt: Date.now() + Math.max(0, ttlMs), size: bytes.length };
      // Data first, sidecar last: a blob is visible only once both are complete.
      await writeFile(`${p.file}.tmp`, bytes);
      await rename(`${p.file}.tmp`, p.file);
      await writeFile(`${p.meta}.tmp`, JSON.stringify(sidecar));
      await rename(`${p.meta}.tmp`, p.meta);
      return key;
    },

    async get(key) {
      if (!isBlobKey(key)) return undefined;
      const p = paths(key);
      let meta: Sidecar;
      try {
        meta = JSON.parse(await readFile(p.meta, 'utf8')) as Sidecar;
      } catch {
        return undefined;
      }
      if (!(meta.expiresAt > Date.now())) {
        await remove(key);
        return undefined;
      }
      try {
        return { bytes: new Uint8Array(await readFile(p.file)), contentType: meta.contentType };
      } catch {
        return undefined;
      }
    },

    url(key) {
      return `${baseUrl().replace(/\/+$/, '')}/v2/blobs/${key}`;
    },

    delete(key) {
      return isBlobKey(key) ? remove(key) : Promise.resolve(false);
    },

    async sweep(now = Date.now()) {
      let deleted = 0;
      let shards: string[];
      try {
        shards = await readdir(dir);
      } catch {
        return 0;
      }
      for (const shard of shards) {
        let names: string[];
        try {
          names = await readdir(join(dir, shard));
        } catch {
          continue;
        }
        const isMeta = (n: string) => n.endsWith('.json') && isBlobKey(n.slice(0, -5));
        const metas = new Set(names.filter(isMeta).map((n) => n.slice(0, -5)));
        for (const key of metas) {
          let expired = true;
          try {
            expired = !((JSON.parse(await readFile(join(dir, shard, `${key}.json`), 'utf8')) as Sidecar).expiresAt > now);
          } catch {
            // unreadable sidecar: drop the blob
          }
          if (expired && (await remove(key))) deleted++;
        }
        // Data files without a sidecar (a crash between the two writes), once older than a minute so a
        // write in progress is left alone.
        for (const n of names) {
          if (isMeta(n) || metas.has(n)) continue;
          const file = join(dir, shard, n);
          const age = await stat(file).then((st) => Date.now() - st.mtimeMs, () => 0);
          if (age > ORPHAN_AGE_MS) await rm(file, { force: true });
        }
      }
      return deleted;
    },
  };
}
