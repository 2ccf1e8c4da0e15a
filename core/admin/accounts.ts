/**
 * Team and API key administration behind `trawl teams ...` and `trawl keys ...` (bin/admin.ts):
 * create and list teams, set credits, concurrency and zero data retention, create keys (the plain
 * key is returned once), list them, set their restrictions (interface.md Authentication 4) and
 * revoke them. Every function takes a Database, so tests call them against a running Trawl's db.
 * Running processes see changes within `accounts.authCacheMs` (at most a minute).
 */
import type { Database } from '../db/client.ts';
import { createKey, createTeam, type CreatedKey } from '../auth/keys.ts';
import { clearAuthCache } from '../auth/authenticate.ts';
import { clearTeamCache } from '../auth/teams.ts';
import { RESTRICTABLE_GROUPS } from '../auth/groups.ts';
import { grantCredits, setCredits } from '../credits/ledger.ts';
import { isUuid } from '../ids.ts';
import type { ThreatPolicyInput } from '../threat/policy.ts';
import { clearThreatPolicyCache } from '../threat/team.ts';

/** A refused admin command; the message says what to change. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

export interface TeamRow {
  id: string;
  name: string;
  credits: number;
  concurrency: number;
  zdrEnabled: boolean;
  keys: number;
  createdAt: Date;
}

export interface KeyRow {
  id: string;
  teamId: string;
  teamName: string;
  name: string;
  /** First characters of the key, for recognizing it. */
  prefix: string;
  isAdmin: boolean;
  allowedFormats: string[];
  allowedEndpoints: string[];
  /** Any restriction (the "Restricted" badge). */
  restricted: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const TEAM_COLUMNS = `t.id, t.name, t.credits, t.concurrency, t.zdr_enabled, t.created_at,
  (select count(*)::int from api_keys k where k.team_id = t.id and k.revoked_at is null) as keys`;

function toTeam(r: Record<string, any>): TeamRow {
  return { id: r.id, name: r.name, credits: Number(r.credits), concurrency: Number(r.concurrency), zdrEnabled: Boolean(r.zdr_enabled), keys: Number(r.keys), createdAt: new Date(r.created_at) };
}

function forget(db: Database): void {
  clearAuthCache(db);
  clearTeamCache(db);
}

/** Creates a team. @throws AdminError when the name is taken or a number is invalid */
export async function addTeam(db: Database, opts: { name: string; credits: number; concurrency: number; zdr?: boolean }): Promise<TeamRow> {
  if (!opts.name.trim()) throw new AdminError('A team needs a name.');
  if (!Number.isSafeInteger(opts.credits) || opts.credits < 0) throw new AdminError('credits must be a whole number of at least 0.');
  if (!Number.isSafeInteger(opts.concurrency) || opts.concurrency < 1) throw new AdminError('concurrency must be a whole number of at least 1.');
  const taken = await db.query('select 1 from teams where name = $1', [opts.name]);
  if (taken.length) throw new AdminError(`A team named "${opts.name}" exists already.`);
  const id = await createTeam(db, opts.name, opts.credits, opts.concurrency);
  if (opts.zdr) await db.query('update teams set zdr_enabled = true where id = $1', [id]);
  return findTeam(db, id);
}

/** Every team, oldest first. */
export async function listTeams(db: Database): Promise<TeamRow[]> {
  return (await db.query(`select ${TEAM_COLUMNS} from teams t order by t.created_at, t.id`)).map(toTeam);
}

/** A team by id or name. @throws AdminError when there is none */
export async function findTeam(db: Database, idOrName: string): Promise<TeamRow> {
  const rows = await db.query(`select ${TEAM_COLUMNS} from teams t where t.id = $1 or t.name = $1 order by t.created_at`, [idOrName]);
  if (rows.length === 0) throw new AdminError(`No team "${idOrName}". List teams with: trawl teams list`);
  if (rows.length > 1) throw new AdminError(`Several teams are named "${idOrName}"; use the team id.`);
  return toTeam(rows[0]);
}

/**
 * Changes a team's credits: `add` grants (may be negative to take away), `set` sets the balance.
 * Both are recorded in the credit ledger. @returns the team after the change
 */
export async function changeCredits(db: Database, idOrName: string, change: { add?: number; set?: number }): Promise<TeamRow> {
  const team = await findTeam(db, idOrName);
  if (change.set !== undefined) {
    if (!Number.isSafeInteger(change.set)) throw new AdminError('--set needs a whole number.');
    await setCredits(db, team.id, change.set);
  } else if (change.add !== undefined) {
    if (!Number.isSafeInteger(change.add)) throw new AdminError('--add needs a whole number.');
    if (change.add >= 0) await grantCredits(db, team.id, change.add);
    else await setCredits(db, team.id, team.credits + change.add);
  }
  return findTeam(db, team.id);
}

/** Changes a team's concurrency limit or zero data retention. */
export async function updateTeam(
  db: Database,
  idOrName: string,
  change: { concurrency?: number; zdr?: boolean; threatPolicy?: ThreatPolicyInput | null },
): Promise<TeamRow> {
  const team = await findTeam(db, idOrName);
  if (change.concurrency !== undefined) {
    if (!Number.isSafeInteger(change.concurrency) || change.concurrency < 1) throw new AdminError('concurrency must be a whole number of at least 1.');
    await db.query('update teams set concurrency = $2 where id = $1', [team.id, change.concurrency]);
  }
  if (change.zdr !== undefined) await db.query('update teams set zdr_enabled = $2 where id = $1', [team.id, change.zdr]);
  if (change.threatPolicy !== undefined) {
    await db.query('update teams set threat_policy = $2 where id = $1', [team.id, change.threatPolicy]);
    clearThreatPolicyCache();
  }
  forget(db);
  return findTeam(db, team.id);
}

export interface Restrictions {
  /** Allowed formats; [] = all. */
  formats?: string[];
  /** Allowed endpoint groups; [] = all. */
  endpoints?: string[];
}

function checkRestrictions(r: Restrictions, knownFormats?: readonly string[]): void {
  const badGroups = (r.endpoints ?? []).filter((g) => !(RESTRICTABLE_GROUPS as readonly string[]).includes(g));
  if (badGroups.length) {
    throw new AdminError(`Unknown endpoint group${badGroups.length > 1 ? 's' : ''} ${badGroups.join(', ')}. Groups: ${RESTRICTABLE_GROUPS.join(', ')}.`);
  }
  if (!knownFormats) return;
  const known = [...knownFormats];
  const badFormats = (r.formats ?? []).filter((f) => !known.includes(f));
  if (badFormats.length) throw new AdminError(`Unknown format${badFormats.length > 1 ? 's' : ''} ${badFormats.join(', ')}. Formats: ${known.join(', ')}.`);
}

/**
 * Creates a key for a team. The plain key is in the result and nowhere else: print it once.
 * @param knownFormats format names to validate `formats` against (the registered format plugins)
 */
export async function addKey(
  db: Database,
  teamIdOrName: string,
  opts: { name?: string; admin?: boolean } & Restrictions,
  knownFormats?: readonly string[],
): Promise<CreatedKey & { teamName: string }> {
  const team = await findTeam(db, teamIdOrName);
  checkRestrictions(opts, knownFormats);
  const created = await createKey(db, team.id, {
    name: opts.name, isAdmin: opts.admin, allowedFormats: dedupe(opts.formats), allowedEndpoints: dedupe(opts.endpoints),
  });
  return { ...created, teamName: team.name };
}

const dedupe = (xs?: string[]) => [...new Set((xs ?? []).map((x) => x.trim()).filter(Boolean))];

function toKey(r: Record<string, any>): KeyRow {
  const formats = r.allowed_formats as string[];
  const endpoints = r.allowed_endpoints as string[];
  return {
    id: r.id, teamId: r.team_id, teamName: r.team_name, name: r.name, prefix: r.key_prefix, isAdmin: r.is_admin,
    allowedFormats: formats, allowedEndpoints: endpoints, restricted: formats.length > 0 || endpoints.length > 0,
    createdAt: new Date(r.created_at), lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null, revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
  };
}

const KEY_SELECT = `select k.id, k.team_id, t.name as team_name, k.name, k.key_prefix, k.is_admin, k.allowed_formats, k.allowed_endpoints,
  k.created_at, k.last_used_at, k.revoked_at from api_keys k join teams t on t.id = k.team_id`;

/** Keys, optionally of one team; revoked keys only with `includeRevoked`. */
export async function listKeys(db: Database, opts: { team?: string; includeRevoked?: boolean } = {}): Promise<KeyRow[]> {
  const teamId = opts.team ? (await findTeam(db, opts.team)).id : null;
  const rows = await db.query(
    `${KEY_SELECT} where ($1::text is null or k.team_id = $1) and ($2 or k.revoked_at is null) order by k.created_at, k.id`,
    [teamId, opts.includeRevoked ?? false],
  );
  return rows.map(toKey);
}

/** A key by id or by the start of the key (at least 8 characters, as listed). */
export async function findKey(db: Database, idOrPrefix: string): Promise<KeyRow> {
  const rows = isUuid(idOrPrefix)
    ? await db.query(`${KEY_SELECT} where k.id = $1`, [idOrPrefix.toLowerCase()])
    : idOrPrefix.length >= 8
      ? await db.query(`${KEY_SELECT} where k.key_prefix = $1 and k.revoked_at is null`, [idOrPrefix.slice(0, 8)])
      : [];
  if (rows.length === 0) throw new AdminError(`No key "${idOrPrefix}". List keys with: trawl keys list`);
  if (rows.length > 1) throw new AdminError(`Several keys start with "${idOrPrefix}"; use the key id.`);
  return toKey(rows[0]);
}

/** Sets a key's allowlists (a list left undefined keeps its value; [] lifts that restriction). */
export async function restrictKey(db: Database, idOrPrefix: string, r: Restrictions, knownFormats?: readonly string[]): Promise<KeyRow> {
  const key = await findKey(db, idOrPrefix);
  checkRestrictions(r, knownFormats);
  await db.query('update api_keys set allowed_formats = $2::jsonb, allowed_endpoints = $3::jsonb where id = $1', [
    key.id, JSON.stringify(r.formats === undefined ? key.allowedFormats : dedupe(r.formats)),
    JSON.stringify(r.endpoints === undefined ? key.allowedEndpoints : dedupe(r.endpoints)),
  ]);
  forget(db);
  return findKey(db, key.id);
}

/** Revokes a key (kept for history; refused from then on). */
export async function revokeKey(db: Database, idOrPrefix: string): Promise<KeyRow> {
  const key = await findKey(db, idOrPrefix);
  await db.query('update api_keys set revoked_at = coalesce(revoked_at, now()) where id = $1', [key.id]);
  forget(db);
  return findKey(db, key.id);
}
