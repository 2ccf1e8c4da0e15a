/**
 * API keys: generation, hashing, and the first-start bootstrap. Keys look like `fc-<32 hex>` (the form
 * existing clients expect); only their SHA-256 is stored, and a key is shown once, at creation.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/client.ts';
import { newId } from '../ids.ts';

/** SHA-256 hex digest of a key: what `api_keys.key_hash` stores. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new random key, `fc-` + 32 hex characters (128 bits). */
export function generateKey(): string {
  return `fc-${randomBytes(16).toString('hex')}`;
}

export interface CreatedKey {
  id: string;
  teamId: string;
  /** The plain key: returned once, never stored. */
  key: string;
}

/**
 * Creates a team.
 * @param credits starting balance (credits)
 */
export async function createTeam(db: Database, name: string, credits: number, concurrency: number): Promise<string> {
  const id = newId();
  await db.query('insert into teams (id, name, credits, concurrency) values ($1, $2, $3, $4)', [id, name, credits, concurrency]);
  return id;
}

/** Creates a key for a team; the returned `key` is the only time the plain key exists. */
export async function createKey(
  db: Database,
  teamId: string,
  opts: { name?: string; isAdmin?: boolean; allowedFormats?: string[]; allowedEndpoints?: string[] } = {},
): Promise<CreatedKey> {
  const key = generateKey();
  const id = newId();
  await db.query(
    `insert into api_keys (id, team_id, name, key_hash, key_prefix, allowed_formats, allowed_endpoints, is_admin)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)`,
    [id, teamId, opts.name ?? 'default', hashKey(key), key.slice(0, 8), JSON.stringify(opts.allowedFormats ?? []), JSON.stringify(opts.allowedEndpoints ?? []), opts.isAdmin ?? false],
  );
  return { id, teamId, key };
}

/**
 * On an empty instance (no keys at all), creates an admin team and key and returns the key so the
 * caller can print it once. Returns undefined when keys already exist.
 */
export async function bootstrapAdminKey(db: Database, credits: number, concurrency: number): Promise<CreatedKey | undefined> {
  const rows = await db.query<{ n: number }>('select count(*)::int as n from api_keys');
  if (Number(rows[0]?.n ?? 0) > 0) return undefined;
  const teamId = await createTeam(db, 'admin', credits, concurrency);
  return createKey(db, teamId, { name: 'admin', isAdmin: true });
}
