/**
 * Per-team webhook secrets (issue 15 item 13; compat.md §17 "keyed with the team secret"). Each team
 * signs its webhooks with its own secret, generated on first use and stored in `teams.webhook_secret`
 * (migration 0011), so a team that knows its secret cannot forge another team's webhooks. The team's
 * admins read it through `GET /v2/team/webhook-secret` (rotate: `POST .../rotate`) or the
 * `trawl teams webhook-secret` command.
 *
 * `TRAWL_WEBHOOK_SECRET` is only a legacy setting for single-team installs: when set, it is the
 * secret of the built-in local team (the one `TRAWL_AUTH=off` runs as), so receivers configured
 * with it keep working; it never signs another team's webhooks.
 */
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { LOCAL_TEAM_ID } from '../auth/authenticate.ts';
import { TrawlError } from '../errors.ts';

/** A new random secret: `whsec_` and 32 random bytes, base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The webhook secret of a team, generated and stored on first use (concurrent first uses agree on
 * one). The local team's is `legacySecret` (TRAWL_WEBHOOK_SECRET) when that is set.
 * @param legacySecret config.webhookSecret
 * @returns the secret, or undefined for an unknown team (its webhooks go unsigned)
 */
export async function teamWebhookSecret(db: Queryable, teamId: string, legacySecret?: string): Promise<string | undefined> {
  if (teamId === LOCAL_TEAM_ID && legacySecret) return legacySecret;
  const rows = await db.query<{ webhook_secret: string | null }>('select webhook_secret from teams where id = $1', [teamId]);
  if (rows.length === 0) return undefined;
  if (rows[0].webhook_secret) return rows[0].webhook_secret;
  const set = await db.query<{ webhook_secret: string }>(
    'update teams set webhook_secret = coalesce(webhook_secret, $2) where id = $1 returning webhook_secret',
    [teamId, newWebhookSecret()],
  );
  return set[0]?.webhook_secret;
}

/**
 * Replaces a team's webhook secret; deliveries sent from now on (retries included) use the new one.
 * @returns the new secret
 * @throws TrawlError BAD_REQUEST for the local team while TRAWL_WEBHOOK_SECRET sets its secret;
 *         NOT_FOUND for an unknown team
 */
export async function rotateTeamWebhookSecret(db: Queryable, teamId: string, legacySecret?: string): Promise<string> {
  if (teamId === LOCAL_TEAM_ID && legacySecret) {
    throw new TrawlError('BAD_REQUEST', 'This team signs with TRAWL_WEBHOOK_SECRET; change that setting (or unset it to use a generated secret) instead.');
  }
  const rows = await db.query<{ webhook_secret: string }>('update teams set webhook_secret = $2 where id = $1 returning webhook_secret', [teamId, newWebhookSecret()]);
  if (rows.length === 0) throw new TrawlError('NOT_FOUND', 'Team not found');
  return rows[0].webhook_secret;
}
