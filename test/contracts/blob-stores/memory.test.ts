/** The blob store contract for the test-only memory store the other contract suites use. */
import { memoryBlobStore } from '../suites/memory-blobs.ts';
import { testBlobStore } from '../suites/blob-store.ts';

testBlobStore('memory (test)', async () => ({ store: memoryBlobStore(), stop: () => {} }));
