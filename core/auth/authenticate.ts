/**
 * Authentication of API requests (interface.md "Authentication"; compat.md §1.3): a Bearer key is
 * hashed and looked up; scrape, search, interact and parse also accept keyless calls, which run as
 * the shared keyless team; `TRAWL_AUTH=off` runs everything as the local team.
 *
 * A key's team and restrictions are cached per process for `accounts.authCacheMs` (at most 60 s), so
 * restriction changes and revocations apply within a minute (interface.md Authentication 4). When a
 * key's restrictions cannot be read or are not valid lists, the request fails closed with 500
 * UNKNOWN_ERROR (interface.md "Errors").
 */
import type { Database } from '../db/client.ts';
import type { ResolvedConfig } from '../config.ts';
import { TrawlError } from '../errors.ts';
import { hashKey } from './keys.ts';

/** Who is calling. `keyId` is undefined for keyless and auth-off callers. */
export interface Principal {
  teamId: string;
  keyId?: string;
  keyless: boolean;
  isAdmin: boolean;
  /** Formats the key may request; empty = all (interface.md Authentication 4). */
  allowedFormats: string[];
  /** Endpoint groups the key may call; empty = all. */
  allowedEndpoints: string[];
}

/** Fixed team ids for callers without a key. */
export const KEYLESS_TEAM_ID = '00000000-0000-7000-8000-000000000000';
export const LOCAL_TEAM_ID = '00000000-0000-7000-8000-000000000001';

/** Makes sure the fixed keyless and local teams exist (idempotent). */
export async function ensureBuiltinTeams(db: Database, config: ResolvedConfig): Promise<void> {
  for (const [id, name] of [[KEYLESS_TEAM_ID, 'keyless'], [LOCAL_TEAM_ID, 'local']]) {
    await db.query('insert into teams (id, name, credits, concurrency) values ($1, $2, $3, $4) on conflict (id) do nothing', [
      id, name, config.team.credits, config.team.concurrency,
    ]);
  }
}

/** The key from `Authorization: Bearer <key>` (or a bare key), or undefined. */
export function bearerKey(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const m = header.match(/^\s*Bearer\s+(.+?)\s*$/i);
  const key = (m ? m[1] : header).trim();
  return key && key !== 'undefined' && key !== 'null' ? key : undefined;
}

/** True when a principal has any key restriction (such keys cannot use v0; interface.md Versioning 2). */
export function isRestricted(p: Principal): boolean {
  return p.allowedFormats.length > 0 || p.allowedEndpoints.length > 0;
}

interface CacheEntry {
  principal: Principal | null;
  at: number;
}

/** Per-database cache of key lookups: key hash -> principal (null = unknown or revoked key). */
const caches = new WeakMap<Database, Map<string, CacheEntry>>();
const CACHE_MAX_ENTRIES = 10_000;

/** Forgets cached key lookups of `db` (used after admin changes made in the same process). */
export function clearAuthCache(db: Database): void {
  caches.get(db)?.clear();
}

const unverifiable = (cause?: unknown) =>
  new TrawlError('UNKNOWN_ERROR', 'The API key and its restrictions could not be verified, so the request was rejected. Retry shortly.', { cause });

/** A restriction list as stored (jsonb array of strings); anything else cannot be trusted. */
function restrictionList(v: unknown): string[] {
  const value = typeof v === 'string' ? JSON.parse(v) : v;
  if (!Array.isArray(value) || !value.every((x) => typeof x === 'string')) throw new Error('restriction list is not an array of strings');
  return value as string[];
}

async function lookup(db: Database, hash: string): Promise<Principal | null> {
  const rows = await db.query<{ id: string; team_id: string; is_admin: boolean; allowed_formats: unknown; allowed_endpoints: unknown }>(
    'select id, team_id, is_admin, allowed_formats, allowed_endpoints from api_keys where key_hash = $1 and revoked_at is null',
    [hash],
  );
  const row = rows[0];
  if (!row) return null;
  const principal: Principal = {
    teamId: row.team_id,
    keyId: row.id,
    keyless: false,
    isAdmin: row.is_admin,
    allowedFormats: restrictionList(row.allowed_formats),
    allowedEndpoints: restrictionList(row.allowed_endpoints),
  };
  // Best effort: last use is recorded at most once per cache period.
  db.query('update api_keys set last_used_at = now() where id = $1', [row.id]).catch(() => {});
  return principal;
}

/**
 * Resolves the caller.
 * @param key       the bearer key, if any
 * @param keyless   whether the endpoint accepts keyless calls
 * @throws TrawlError UNAUTHORIZED (401) for a missing key where one is needed, or an unknown/revoked key;
 *         UNKNOWN_ERROR (500) when the key's record or restrictions cannot be read (fail closed)
 */
export async function authenticate(db: Database, config: ResolvedConfig, key: string | undefined, keyless: boolean): Promise<Principal> {
  if (config.auth === 'off') {
    return { teamId: LOCAL_TEAM_ID, keyless: false, isAdmin: true, allowedFormats: [], allowedEndpoints: [] };
  }
  if (!key) {
    if (keyless) return { teamId: KEYLESS_TEAM_ID, keyless: true, isAdmin: false, allowedFormats: [], allowedEndpoints: [] };
    throw new TrawlError('UNAUTHORIZED', 'Unauthorized: Invalid token');
  }
  const hash = hashKey(key);
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const now = Date.now();
  let entry = cache.get(hash);
  if (!entry || now - entry.at >= config.accounts.authCacheMs) {
    let principal: Principal | null;
    try {
      principal = await lookup(db, hash);
    } catch (e) {
      cache.delete(hash);
      throw unverifiable(e);
    }
    entry = { principal, at: now };
    if (config.accounts.authCacheMs > 0) {
      if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
      cache.set(hash, entry);
    }
  }
  if (!entry.principal) throw new TrawlError('UNAUTHORIZED', 'Unauthorized: Invalid token');
  return entry.principal;
}
