/**
 * Blob store in the database (core/blobs.ts; issue 3 scope 3): used when `DATABASE_URL` is set, so a
 * screenshot taken by any worker can be served by any API node. Each blob is one `blobs` row (bytes
 * as bytea, content type, expiry); keys have the same shape as the local store's (128 random bits in
 * hex plus an extension), so `/v2/blobs/{key}` URLs look the same whichever store made them. Expired
 * blobs read as missing and are deleted by `sweep()`.
 */
import type { Queryable } from '../db/client.ts';
import { isBlobKey, newBlobKey, type BlobStore } from '../blobs.ts';


export interface DatabaseBlobStore extends BlobStore {
  /** Deletes expired blobs. @returns how many were deleted */
  sweep(): Promise<number>;
  /** Deletes one blob; false when it did not exist. */
  delete(key: string): Promise<boolean>;
}

/** bytea comes back as a Buffer (postgres.js) or Uint8Array (PGlite); both are Uint8Array views. */
function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'string' && value.startsWith('\\x')) return Uint8Array.from(Buffer.from(value.slice(2), 'hex'));
  throw new Error('[blobs] unexpected bytea value from the database');
}

/**
 * Creates a store on `db` (table `blobs`, migration 0005).
 * @param baseUrl base of public URLs without trailing slash, read at each `url()` call
 */
export function createDatabaseBlobStore(db: Queryable, baseUrl: () => string): DatabaseBlobStore {
  return {
    async put(bytes, contentType, ttlMs) {
      const type = contentType.split(';')[0]!.trim().toLowerCase();
      const key = newBlobKey(type);
      await db.query('insert into blobs (key, content_type, bytes, size_bytes, expires_at) values ($1, $2, $3, $4, $5)', [
        key, contentType, bytes, bytes.length, new Date(Date.now() + Math.max(0, ttlMs)),
      ]);
      return key;
    },

    async get(key) {
      if (!isBlobKey(key)) return undefined;
      const rows = await db.query<{ content_type: string; bytes: unknown }>(
        'select content_type, bytes from blobs where key = $1 and expires_at > now()',
        [key],
      );
      const r = rows[0];
      return r ? { bytes: toBytes(r.bytes), contentType: r.content_type } : undefined;
    },

    url(key) {
      return `${baseUrl().replace(/\/+$/, '')}/v2/blobs/${key}`;
    },

    async delete(key) {
      if (!isBlobKey(key)) return false;
      return (await db.query('delete from blobs where key = $1 returning 1', [key])).length > 0;
    },

    async sweep() {
      return (await db.query('delete from blobs where expires_at < now() returning 1')).length;
    },
  };
}
