/**
 * Blob store for binary outputs (screenshots, PDFs from the pdf action). Blobs are served by Trawl at
 * `/v2/blobs/{key}`; responses carry that absolute URL. The default stores files under
 * `<dataDir>/blobs`; with `DATABASE_URL` set, blobs go to the database so any API node can serve them.
 */

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
