/**
 * The `browser_profiles` table (migration 0005): one row per team and profile name with the saved
 * browser state and the lock of the one session allowed to save it (interface.md `profile`: "only
 * one saving session at a time"). The lock is a lease (holder id + expiry) so a crashed process never
 * keeps a profile locked for longer than its lease.
 */
import type { Queryable } from '../db/client.ts';
import type { ProfileState } from '../plugin.ts';

/** Largest saved state, bytes of JSON; larger states lose their biggest localStorage origins first. */
export const MAX_PROFILE_BYTES = 5 * 1024 * 1024;

/** The saved state of a profile, or undefined for a profile never saved. */
export async function loadProfile(db: Queryable, teamId: string, name: string): Promise<ProfileState | undefined> {
  const rows = await db.query<{ state: ProfileState | null }>('select state from browser_profiles where team_id = $1 and name = $2', [teamId, name]);
  return rows[0]?.state ?? undefined;
}

/**
 * Takes the profile's save lock for `holder` until `leaseMs` from now (creating the profile row).
 * @returns `{ locked: true, state }`, or `{ locked: false }` when another live session holds it
 */
export async function lockProfile(
  db: Queryable,
  teamId: string,
  name: string,
  holder: string,
  leaseMs: number,
): Promise<{ locked: true; state?: ProfileState } | { locked: false }> {
  await db.query('insert into browser_profiles (team_id, name) values ($1, $2) on conflict do nothing', [teamId, name]);
  const rows = await db.query<{ state: ProfileState | null }>(
    `update browser_profiles set lock_holder = $3, lock_expires_at = $4
     where team_id = $1 and name = $2 and (lock_holder is null or lock_holder = $3 or lock_expires_at < now())
     returning state`,
    [teamId, name, holder, new Date(Date.now() + leaseMs)],
  );
  return rows.length ? { locked: true, state: rows[0]!.state ?? undefined } : { locked: false };
}

/**
 * Writes the state if `holder` still holds the lock.
 * @returns false when the lock was lost (expired and taken over): nothing was written
 */
export async function saveProfile(db: Queryable, teamId: string, name: string, holder: string, state: ProfileState): Promise<boolean> {
  const fitted = fit(state);
  const json = JSON.stringify(fitted);
  const rows = await db.query(
    `update browser_profiles set state = $4, size_bytes = $5, updated_at = now()
     where team_id = $1 and name = $2 and lock_holder = $3 returning 1`,
    [teamId, name, holder, fitted, Buffer.byteLength(json)],
  );
  return rows.length > 0;
}

/** Releases the lock held by `holder` (idempotent). */
export async function unlockProfile(db: Queryable, teamId: string, name: string, holder: string): Promise<void> {
  await db.query(
    'update browser_profiles set lock_holder = null, lock_expires_at = null where team_id = $1 and name = $2 and lock_holder = $3',
    [teamId, name, holder],
  );
}

/** Drops the largest localStorage origins until the state fits `MAX_PROFILE_BYTES`. */
function fit(state: ProfileState): ProfileState {
  const size = (s: ProfileState) => Buffer.byteLength(JSON.stringify(s));
  if (size(state) <= MAX_PROFILE_BYTES) return state;
  const origins = [...state.origins].sort((a, b) => JSON.stringify(a).length - JSON.stringify(b).length);
  let out: ProfileState = { cookies: state.cookies, origins };
  while (out.origins.length > 0 && size(out) > MAX_PROFILE_BYTES) out = { cookies: out.cookies, origins: out.origins.slice(0, -1) };
  if (size(out) > MAX_PROFILE_BYTES) out = { cookies: out.cookies.slice(0, 1000), origins: [] };
  return out;
}
