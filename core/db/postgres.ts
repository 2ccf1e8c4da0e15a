/**
 * External PostgreSQL (DATABASE_URL) through postgres.js. drizzle switches postgres.js to return
 * timestamps and 64-bit integers as text; `normalizeRows` turns them back into `Date` and `number` so
 * raw queries give the same shapes as PGlite.
 */
import postgres, { type Sql } from 'postgres';
import type { Logger } from '../log.ts';

/** Connections per process. */
const POOL_SIZE = 10;

/**
 * Creates a postgres.js pool (connects lazily, on first query).
 * @param url `postgres://user:pass@host:port/db`
 */
export function createPostgresClient(url: string, log: Logger): Sql {
  return postgres(url, {
    max: POOL_SIZE,
    connect_timeout: 10,
    idle_timeout: 60,
    connection: { application_name: 'trawl' },
    onnotice: (notice) => log.debug({ notice: notice.message }, 'postgres notice'),
  });
}

const INT8 = 20;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

/** `2026-11-21 06:27:18.15+00` (Postgres text output) -> Date. */
function parseTimestamp(text: string, withZone: boolean): Date | string {
  let iso = text.replace(' ', 'T');
  if (withZone) iso = iso.replace(/([+-]\d\d)$/, '$1:00');
  else iso += 'Z';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? text : date;
}

function parseInt8(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

/**
 * Converts the text values postgres.js returns under drizzle into the JS values PGlite returns:
 * int8 -> number (bigint beyond 2^53), timestamptz/timestamp -> Date. Mutates and returns `rows`.
 */
export function normalizeRows<T>(rows: Record<string, unknown>[], columns: readonly { name: string; type: number }[]): T[] {
  const convert = columns.filter((c) => c.type === INT8 || c.type === TIMESTAMP || c.type === TIMESTAMPTZ);
  if (convert.length === 0) return rows as T[];
  for (const row of rows) {
    for (const c of convert) {
      const v = row[c.name];
      if (typeof v !== 'string') continue;
      row[c.name] = c.type === INT8 ? parseInt8(v) : parseTimestamp(v, c.type === TIMESTAMPTZ);
    }
  }
  return rows as T[];
}
