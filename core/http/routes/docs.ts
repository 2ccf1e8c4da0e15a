/**
 * API documentation: the OpenAPI document at `/docs/json`, generated from the routes' TypeBox models,
 * and Swagger UI at `/docs`, with its script and stylesheet embedded in the binary (no CDN: the UI
 * works offline).
 */
import { Elysia } from 'elysia';
import { openapi } from '@elysiajs/openapi';
import swaggerJs from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };
import { VERSION } from '../../version.ts';

const ASSETS = '/docs/assets';

export function docsRoutes() {
  return new Elysia({ name: 'routes/docs' })
    .get(`${ASSETS}/swagger-ui-bundle.js`, () => new Response(Bun.file(swaggerJs), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' } }), { detail: { hide: true } })
    .get(`${ASSETS}/swagger-ui.css`, () => new Response(Bun.file(swaggerCss), { headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=86400' } }), { detail: { hide: true } })
    .use(
      openapi({
        path: '/docs',
        specPath: '/docs/json',
        provider: 'swagger-ui',
        swagger: { cdn: `${ASSETS}/swagger-ui-bundle.js`, theme: `${ASSETS}/swagger-ui.css`, autoDarkMode: false },
        exclude: { paths: [/^\/docs/] },
        documentation: {
          info: {
            title: 'Trawl API',
            version: VERSION,
            description: 'Self-hostable web content service: scrape, crawl, map, search. Compatible with Firecrawl API v2 clients.',
            license: { name: 'AGPL-3.0-or-later' },
          },
          components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
          security: [{ bearerAuth: [] }],
        },
      }),
    );
}
