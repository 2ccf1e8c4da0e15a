/**
 * `POST /admin/commands`: runs a `trawl teams ...` / `trawl keys ...` command inside the server, for
 * an admin key only. This is how the admin commands reach a running Trawl whose embedded database no
 * other process can open (`trawl keys list --server <url> --admin-key <key>`). Same code as the
 * local commands (core/admin/cli.ts); hidden from the API docs.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { admit } from '../guard.ts';
import { isRestricted } from '../../auth/authenticate.ts';
import { TrawlError } from '../../errors.ts';
import { runAdmin } from '../../admin/cli.ts';
import { Registry } from '../../registry.ts';

export function adminRoutes(services: Services) {
  return new Elysia({ name: 'routes/admin' }).post(
    '/admin/commands',
    async ({ body, request }) => {
      const principal = await admit(services, request, { group: 'account' });
      if (!principal.isAdmin || principal.keyless || isRestricted(principal)) {
        throw new TrawlError('FORBIDDEN', 'Only an unrestricted admin key can run admin commands.');
      }
      let out = '';
      let err = '';
      const code = await runAdmin(body.args, services.db, {
        out: (t) => (out += t),
        err: (t) => (err += t),
        knownFormats: [...new Set([...services.formats.keys(), ...new Registry().names('format')])],
        defaults: { credits: services.config.team.credits, concurrency: services.config.team.concurrency },
        legacyWebhookSecret: services.config.webhookSecret,
      });
      return { success: true as const, code, out, err };
    },
    {
      body: Type.Object({ args: Type.Array(Type.String({ maxLength: 10_000 }), { maxItems: 64 }) }),
      detail: { hide: true },
    },
  );
}
