/** The blob store contract for the local store (core/blob-stores/local.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalBlobStore } from '../../../core/blob-stores/local.ts';
import { testBlobStore } from '../suites/blob-store.ts';

testBlobStore('local', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-blob-contract-'));
  return { store: createLocalBlobStore(join(dir, 'blobs'), () => 'http://127.0.0.1:3002'), stop: () => rmSync(dir, { recursive: true, force: true }) };
});
