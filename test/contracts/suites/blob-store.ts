/**
 * The blob store contract (issue 16 scope 4; core/blobs.ts `BlobStore`): `testBlobStore(name, make)`
 * checks round trips (bytes and content type kept; key shape from `newBlobKey`; URL under
 * `/v2/blobs/{key}`), unique keys, expiry (an expired blob reads as missing), unknown and malformed
 * keys reading as missing, and, where the store has them, `delete` and `sweep`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { isBlobKey, type BlobStore } from '../../../core/blobs.ts';

export interface BlobStoreEnv {
  store: BlobStore;
  stop(): Promise<void> | void;
}

export function testBlobStore(name: string, make: () => Promise<BlobStoreEnv>): void {
  describe(`blob store "${name}"`, () => {
    let env: BlobStoreEnv;
    beforeAll(async () => {
      env = await make();
    }, 60_000);
    afterAll(async () => env?.stop());

    test('round trip: bytes, content type, key shape and URL', async () => {
      const bytes = new Uint8Array([0, 1, 2, 250, 255]);
      const key = await env.store.put(bytes, 'audio/mpeg', 60_000);
      expect(isBlobKey(key)).toBe(true);
      expect(key.endsWith('.mp3')).toBe(true);
      const got = await env.store.get(key);
      expect(got?.contentType).toBe('audio/mpeg');
      expect([...got!.bytes]).toEqual([...bytes]);
      expect(env.store.url(key)).toMatch(new RegExp(`/v2/blobs/${key.replace('.', '\\.')}$`));
    });

    test('keys are unique', async () => {
      const keys = await Promise.all(Array.from({ length: 10 }, () => env.store.put(new Uint8Array([1]), 'image/png', 60_000)));
      expect(new Set(keys).size).toBe(10);
    });

    test('an expired blob reads as missing', async () => {
      const key = await env.store.put(new Uint8Array([7]), 'image/png', 1);
      await Bun.sleep(20);
      expect(await env.store.get(key)).toBeUndefined();
    });

    test('unknown and malformed keys read as missing', async () => {
      expect(await env.store.get('0123456789abcdef0123456789abcdef.png')).toBeUndefined();
      expect(await env.store.get('../../etc/passwd')).toBeUndefined();
    });

    test('delete and sweep, where the store has them', async () => {
      const key = await env.store.put(new Uint8Array([3]), 'image/png', 60_000);
      if (env.store.delete) {
        expect(await env.store.delete(key)).toBe(true);
        expect(await env.store.get(key)).toBeUndefined();
      }
      const live = await env.store.put(new Uint8Array([4]), 'image/png', 60_000);
      await env.store.put(new Uint8Array([5]), 'image/png', 1);
      await Bun.sleep(20);
      await env.store.sweep?.();
      expect(await env.store.get(live)).toBeDefined();
    });
  });
}
