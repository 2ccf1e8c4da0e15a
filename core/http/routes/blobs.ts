/**
 * `GET /v2/blobs/{key}`: serves stored binary outputs (screenshots, PDFs of the pdf action) by their
 * unguessable key, so responses can carry plain URLs. A URL with `expires` and `signature` (media:
 * audio and video formats, core/blob-signing.ts) is served only while valid; media blobs only so.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { isBlobKey } from '../../blobs.ts';
import { needsSignature, verifyBlobSignature } from '../../blob-signing.ts';

export function blobRoutes(services: Services) {
  return new Elysia({ name: 'routes/blobs' }).get(
    '/v2/blobs/:key',
    async ({ params, query }) => {
      if (!isBlobKey(params.key)) throw new TrawlError('NOT_FOUND', 'Blob not found');
      const signed = query.expires !== undefined || query.signature !== undefined;
      const check = signed ? verifyBlobSignature(params.key, query.expires, query.signature, services.config.blobSecret) : undefined;
      if (check === 'expired') throw new TrawlError('FORBIDDEN', 'This signed link has expired (links to media last 1 hour). Scrape the page again for a new one.');
      if (check === 'invalid') throw new TrawlError('FORBIDDEN', 'This signed link is not valid: its signature does not match.');
      const blob = await services.blobs.get(params.key);
      if (!blob) throw new TrawlError('NOT_FOUND', 'Blob not found or expired');
      if (!signed && needsSignature(blob.contentType)) throw new TrawlError('FORBIDDEN', 'Media blobs are served only through their signed link.');
      return new Response(blob.bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': blob.contentType, 'cache-control': 'private, max-age=3600' } });
    },
    {
      params: Type.Object({ key: Type.String() }),
      query: Type.Object({ expires: Type.Optional(Type.String()), signature: Type.Optional(Type.String()) }, { additionalProperties: true }),
      detail: { summary: 'Download a screenshot or PDF', tags: ['Scrape'] } },
  );
}
