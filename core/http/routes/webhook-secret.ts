/**
 * The team's webhook secret for its admins (issue 15 item 13): `GET /v2/team/webhook-secret` shows
 * the secret that signs the team's webhooks (generated on first use), `POST
 * /v2/team/webhook-secret/rotate` replaces it. Only admin keys of the team (or everyone with
 * `TRAWL_AUTH=off`, the single local team) may call them; other keys get 403.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import type { Principal } from '../../auth/authenticate.ts';
import { TrawlError } from '../../errors.ts';
import { rotateTeamWebhookSecret, teamWebhookSecret } from '../../webhooks/team-secret.ts';
import { errorResponses } from '../models/common.ts';
import { admit } from '../guard.ts';

const SecretModel = Type.Object({ success: Type.Literal(true), secret: Type.String({ description: 'HMAC-SHA256 key of X-Service-Signature' }) });

/** `/v2/team/webhook-secret` and its rotation. */
export function webhookSecretRoutes(services: Services) {
  const adminOf = async (request: Request): Promise<Principal> => {
    const principal = await admit(services, request, { group: 'account' });
    if (!principal.isAdmin || principal.keyless) throw new TrawlError('FORBIDDEN', "Only an admin key of the team can read or rotate the team's webhook secret.");
    return principal;
  };
  const tags = ['Team'];
  return new Elysia({ name: 'routes/webhook-secret' })
    .get(
      '/v2/team/webhook-secret',
      async ({ request }) => {
        const { teamId } = await adminOf(request);
        const secret = await teamWebhookSecret(services.db, teamId, services.config.webhookSecret);
        if (!secret) throw new TrawlError('NOT_FOUND', 'Team not found');
        return { success: true as const, secret };
      },
      { response: { 200: SecretModel, ...errorResponses }, detail: { summary: "The team's webhook signing secret (admin keys)", tags } },
    )
    .post(
      '/v2/team/webhook-secret/rotate',
      async ({ request }) => {
        const { teamId } = await adminOf(request);
        return { success: true as const, secret: await rotateTeamWebhookSecret(services.db, teamId, services.config.webhookSecret) };
      },
      { response: { 200: SecretModel, ...errorResponses }, detail: { summary: "Replace the team's webhook signing secret (admin keys)", tags } },
    );
}
