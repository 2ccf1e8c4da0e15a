/**
 * The legacy v0 API. Trawl has no v0 routes; what remains is the rule of interface.md Versioning 2: a
 * key with any restriction gets 403 on v0, every other caller 404 (compat.md §18.3).
 */
import { Elysia } from 'elysia';
import type { Services } from '../../services.ts';
import { authenticate, bearerKey, isRestricted } from '../../auth/authenticate.ts';
import { TrawlError } from '../../errors.ts';

export function v0Routes(services: Services) {
  return new Elysia({ name: 'routes/v0' }).all(
    '/v0/*',
    async ({ request }) => {
      const key = bearerKey(request.headers.get('authorization'));
      if (key) {
        const principal = await authenticate(services.db, services.config, key, false).catch((e: unknown) => {
          if (e instanceof TrawlError && e.code === 'UNAUTHORIZED') return undefined;
          throw e; // restrictions unreadable: fail closed (500)
        });
        if (principal && isRestricted(principal)) {
          throw new TrawlError('FORBIDDEN', 'This API key has restrictions and cannot use the legacy v0 API. Use the /v2 endpoints.');
        }
      }
      throw new TrawlError('NOT_FOUND', 'The v0 API is not available. Use the /v2 endpoints; see /docs.');
    },
    { detail: { hide: true } },
  );
}
