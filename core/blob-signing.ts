/**
 * Expiring blob URLs (issue 16: audio and video formats, compat.md §2.1 "signed URLs, 1 h"): a blob URL
 * gets `expires` (epoch seconds) and `signature`, an HMAC-SHA256 over the blob key and the expiry with
 * the instance's blob secret (config `blobSecret`), base64url. `GET /v2/blobs/{key}` serves a signed
 * URL only while it has not expired and the signature matches; media blobs (audio/*, video/*) are
 * served only through such URLs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed media URL is valid, ms. */
export const SIGNED_URL_TTL_MS = 60 * 60 * 1000;

function signature(key: string, expires: number, secret: string): string {
  return createHmac('sha256', secret).update(`${key}\n${expires}`).digest('base64url');
}

/**
 * Signs a blob URL.
 * @param url   the blob's plain URL (`BlobStore.url(key)`)
 * @param key   the blob key
 * @param now   epoch ms (default now); the URL expires `ttlMs` later
 * @returns the URL with `expires` and `signature` query parameters
 */
export function signBlobUrl(url: string, key: string, secret: string, ttlMs = SIGNED_URL_TTL_MS, now = Date.now()): string {
  const expires = Math.floor((now + ttlMs) / 1000);
  const u = new URL(url);
  u.searchParams.set('expires', String(expires));
  u.searchParams.set('signature', signature(key, expires, secret));
  return u.href;
}

/**
 * Checks a signed blob request.
 * @returns `ok`, `expired` (past `expires`), or `invalid` (missing, malformed or altered)
 */
export function verifyBlobSignature(key: string, expires: string | undefined, sig: string | undefined, secret: string, now = Date.now()): 'ok' | 'expired' | 'invalid' {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const expected = Buffer.from(signature(key, Number(expires), secret));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) * 1000 < now ? 'expired' : 'ok';
}

/** Whether a blob of this content type is served only through a signed URL (media). */
export function needsSignature(contentType: string): boolean {
  return contentType.startsWith('audio/') || contentType.startsWith('video/');
}
