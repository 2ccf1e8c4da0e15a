/**
 * Blob store for binary outputs (screenshots, PDFs from the pdf action). Blobs are served by Trawl at
 * `/v2/blobs/{key}`; responses carry that absolute URL. The default stores files under
 * `<dataDir>/blobs`; with `DATABASE_URL` set, blobs go to the database so any API node can serve them.
 */

import { randomBytes } from 'node:crypto';

/** File extensions of blob keys by content type (`bin` for others). */
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'audio/mpeg': 'mp3',
  'video/mp4': 'mp4',
  'text/plain': 'txt',
  'text/html': 'html',
  'application/json': 'json',
};

const KEY = /^[0-9a-f]{32}\.[a-z0-9]{1,8}$/;

/** A new blob key: 128 random bits in hex plus an extension from the content type. Every store uses it. */
export function newBlobKey(contentType: string): string {
  return `${randomBytes(16).toString('hex')}.${EXTENSIONS[contentType] ?? 'bin'}`;
}

/** Whether `key` has the shape of a blob key (safe as a file name, never a path). */
export function isBlobKey(key: string): boolean {
  return KEY.test(key);
}

export interface BlobStore {
  /**
   * Stores bytes and returns the key.
   * @param bytes     content
   * @param contentType MIME type served back (`image/png`)
   * @param ttlMs     how long the blob must stay readable, ms
   */
  put(bytes: Uint8Array, contentType: string, ttlMs: number): Promise<string>;
  /** Reads a blob, or undefined when unknown or expired. */
  get(key: string): Promise<{ bytes: Uint8Array; contentType: string } | undefined>;
  /** Absolute URL of a blob for responses. */
  url(key: string): string;
  /** Deletes one blob at once (an upload handed to a worker, core/jobs/parse.ts); false when unknown. */
  delete?(key: string): Promise<boolean>;
  /** Deletes expired blobs (run by the scheduler). */
  sweep?(): Promise<unknown>;
}
