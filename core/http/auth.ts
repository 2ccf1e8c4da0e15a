/**
 * Request authentication for routes: reads the Bearer key and resolves the caller (core/auth).
 * Routes call `principalOf` with whether the endpoint allows keyless calls (compat.md §1.3).
 */
import type { Services } from '../services.ts';
import { authenticate, bearerKey, type Principal } from '../auth/authenticate.ts';

/** Resolves the caller of a request; throws UNAUTHORIZED where a key is needed. */
export function principalOf(services: Services, request: Request, opts: { keyless: boolean }): Promise<Principal> {
  return authenticate(services.db, services.config, bearerKey(request.headers.get('authorization')), opts.keyless);
}
