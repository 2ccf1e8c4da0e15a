/**
 * An in-memory blob store for tests of plugins that store outputs (screenshots, media): keys made by
 * `newBlobKey`, expiry honoured on read. Test-only; it also runs the blob store contract.
 */
import { newBlobKey, type BlobStore } from '../../../core/blobs.ts';

export function memoryBlobStore(base = 'http://127.0.0.1:3002'): BlobStore & { size(): number } {
  const blobs = new Map<string, { bytes: Uint8Array; contentType: string; expires: number }>();
  return {
    async put(bytes, contentType, ttlMs) {
      const key = newBlobKey(contentType);
      blobs.set(key, { bytes: new Uint8Array(bytes), contentType, expires: Date.now() + ttlMs });
      return key;
    },
    async get(key) {
      const b = blobs.get(key);
      if (!b || b.expires <= Date.now()) return undefined;
      return { bytes: b.bytes, contentType: b.contentType };
    },
    url: (key) => `${base}/v2/blobs/${key}`,
    async delete(key) {
      return blobs.delete(key);
    },
    async sweep() {
      let n = 0;
      for (const [k, b] of blobs) if (b.expires <= Date.now() && blobs.delete(k)) n++;
      return n;
    },
    size: () => blobs.size,
  };
}
