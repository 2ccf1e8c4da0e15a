/**
 * The public base URL of absolute links in responses (job `url`, paging `next`, blobs): the configured
 * TRAWL_PUBLIC_URL, else `X-Forwarded-Proto`/`X-Forwarded-Host`, else the request's own origin
 * (compat.md §1.1). Never forces https.
 */
import type { ResolvedConfig } from '../config.ts';

export function publicBaseUrl(config: ResolvedConfig, request: Request): string {
  if (config.publicUrl) return config.publicUrl;
  const url = new URL(request.url);
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0].trim() || url.protocol.replace(':', '');
  const host = request.headers.get('x-forwarded-host')?.split(',')[0].trim() || request.headers.get('host') || url.host;
  return `${proto}://${host}`;
}
