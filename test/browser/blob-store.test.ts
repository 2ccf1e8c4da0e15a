/**
 * The local blob store (core/blob-stores/local.ts): keys, URLs, content types, expiry, sweep and
 * refusal of keys that are not ours.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalBlobStore } from '../../core/blob-stores/local.ts';

const dir = mkdtempSync(join(tmpdir(), 'trawl-blobs-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let base = 'http://localhost:3002';
const store = createLocalBlobStore(join(dir, 'blobs'), () => base);

describe('local blob store', () => {
  test('put / get round trip with extension, content type and URL', async () => {
    const bytes = new Uint8Array([1, 2, 3, 255]);
    const key = await store.put(bytes, 'image/png', 60_000);
    expect(key).toMatch(/^[0-9a-f]{32}\.png$/);
    const got = await store.get(key);
    expect(got?.contentType).toBe('image/png');
    expect([...got!.bytes]).toEqual([1, 2, 3, 255]);
    expect(store.url(key)).toBe(`http://localhost:3002/v2/blobs/${key}`);
    base = 'https://trawl.site.example/';
    expect(store.url(key)).toBe(`https://trawl.site.example/v2/blobs/${key}`);
    expect(await store.put(bytes, 'application/pdf', 1000)).toMatch(/\.pdf$/);
    expect(await store.put(bytes, 'image/jpeg', 1000)).toMatch(/\.jpg$/);
    expect(await store.put(bytes, 'application/x-whatever', 1000)).toMatch(/\.bin$/);
    expect(await store.put(bytes, 'application/json', 1000)).toMatch(/\.json$/);
  });

  test('keys are unique', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => store.put(new Uint8Array([0]), 'image/png', 1000)));
    expect(new Set(keys).size).toBe(20);
  });

  test('expired blobs read as missing and are deleted', async () => {
    const key = await store.put(new Uint8Array([9]), 'image/png', 1);
    await Bun.sleep(5);
    expect(await store.get(key)).toBeUndefined();
    const shard = join(dir, 'blobs', key.slice(0, 2));
    expect(readdirSync(shard).filter((n) => n.startsWith(key))).toEqual([]);
  });

  test('sweep deletes expired blobs, keeps live ones, and removes old orphan files', async () => {
    const live = await store.put(new Uint8Array([1]), 'image/png', 60_000);
    const soon = await store.put(new Uint8Array([2]), 'image/png', 10_000);
    const jsonBlob = await store.put(new Uint8Array([3]), 'application/json', 60_000);
    const orphan = join(dir, 'blobs', 'ab', 'abababababababababababababababab.png');
    mkdirSync(join(dir, 'blobs', 'ab'), { recursive: true });
    writeFileSync(orphan, 'x');
    utimesSync(orphan, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    const deleted = await store.sweep(Date.now() + 20_000);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await store.get(live)).toBeDefined();
    expect(await store.get(jsonBlob)).toBeDefined();
    expect(await store.get(soon)).toBeUndefined();
    expect(readdirSync(join(dir, 'blobs', 'ab')).includes('abababababababababababababababab.png')).toBe(false);
  });

  test('unknown and malformed keys are refused without touching the disk outside the store', async () => {
    expect(await store.get('0123456789abcdef0123456789abcdef.png')).toBeUndefined();
    expect(await store.get('../../etc/passwd')).toBeUndefined();
    expect(await store.get('..%2f..%2fetc')).toBeUndefined();
    expect(await store.delete('../x')).toBe(false);
  });
});
