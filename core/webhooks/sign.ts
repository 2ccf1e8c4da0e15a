/**
 * Webhook signatures (interface.md Events; compat.md §17): HMAC-SHA256 of the raw body bytes keyed
 * with the webhook secret, sent as `sha256=<hex>` in `X-Service-Signature` and, with the same value,
 * in `X-Firecrawl-Signature`. `verifySignature` is what a receiver does (timing-safe compare).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=<hex>` for `body` under `secret`. */
export function signBody(body: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Headers carrying the signature; empty without a secret (compat.md §17: omit both). */
export function signatureHeaders(body: string, secret: string | undefined): Record<string, string> {
  if (!secret) return {};
  const value = signBody(body, secret);
  return { 'X-Service-Signature': value, 'X-Firecrawl-Signature': value };
}

/** Checks a received signature header against the body, in constant time. */
export function verifySignature(body: string | Uint8Array, header: string | null | undefined, secret: string): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(body, secret));
  const got = Buffer.from(header.trim());
  return got.length === expected.length && timingSafeEqual(got, expected);
}
