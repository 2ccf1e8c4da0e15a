/**
 * `GET /v2/blobs/{key}`: serves stored binary outputs (screenshots, PDFs of the pdf action) by their
 * unguessable key, so responses can carry plain URLs.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { isBlobKey } from '../../blobs.ts';

export function blobRoutes(services: Services) {
  return new Elysia({ name: 'routes/blobs' }).get(
    '/v2/blobs/:key',
    async ({ params }) => {
      if (!isBlobKey(params.key)) throw new TrawlError('NOT_FOUND', 'Blob not found');
      const blob = await services.blobs.get(params.key);
      if (!blob) throw new TrawlError('NOT_FOUND', 'Blob not found or expired');
      return new Response(blob.bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': blob.contentType, 'cache-control': 'private, max-age=3600' } });
    },
    { params: Type.Object({ key: Type.String() }), detail: { summary: 'Download a screenshot or PDF', tags: ['Scrape'] } },
  );
}
