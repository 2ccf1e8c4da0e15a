/**
 * The `tbs` time filter (interface.md "Search request body": qdr:h/d/w/m/y, sbd:1, and
 * `cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY`, parts joined by commas). `parseTbs` validates it once in
 * the core; providers translate the parsed form to their own parameters (Brave `freshness`, Google
 * `dateRestrict`/`sort`, SearXNG `time_range`) or filter by date themselves (local index).
 */
import { TrawlError } from '../errors.ts';

export type QdrUnit = 'h' | 'd' | 'w' | 'm' | 'y';

export interface TimeFilter {
  /** Past period: `qdr:<unit>[n]` (n defaults to 1). */
  qdr?: { unit: QdrUnit; n: number };
  /** Custom range, inclusive days (UTC): `from` at 00:00, `to` at 23:59:59.999. */
  from?: Date;
  to?: Date;
  /** `sbd:1`: newest first. */
  sortByDate: boolean;
}

const UNIT_MS: Record<QdrUnit, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, m: 30 * 86_400_000, y: 365 * 86_400_000 };

function bad(tbs: string, why: string): TrawlError {
  return new TrawlError(
    'BAD_REQUEST',
    `Invalid tbs "${tbs.slice(0, 100)}": ${why}. Use qdr:h, qdr:d, qdr:w, qdr:m or qdr:y, sbd:1, or cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY (parts joined by commas).`,
  );
}

function parseDay(tbs: string, v: string, endOfDay: boolean): Date {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v.trim());
  if (!m) throw bad(tbs, `"${v}" is not a M/D/YYYY date`);
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day, endOfDay ? 23 : 0, endOfDay ? 59 : 0, endOfDay ? 59 : 0, endOfDay ? 999 : 0));
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) throw bad(tbs, `"${v}" is not a real date`);
  return d;
}

/**
 * Parses and validates `tbs`.
 * @returns undefined for an empty value
 * @throws TrawlError BAD_REQUEST naming the part that is wrong and the accepted forms
 */
export function parseTbs(tbs: string | undefined): TimeFilter | undefined {
  if (tbs === undefined || tbs.trim() === '') return undefined;
  const out: TimeFilter = { sortByDate: false };
  let cdr = false;
  for (const raw of tbs.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key, ...rest] = raw.split(':');
    const value = rest.join(':');
    switch (key.toLowerCase()) {
      case 'qdr': {
        const m = /^([hdwmy])(\d{0,4})$/.exec(value);
        if (!m) throw bad(tbs, `"${raw}" has an unknown period`);
        out.qdr = { unit: m[1] as QdrUnit, n: m[2] ? Math.max(1, Number(m[2])) : 1 };
        break;
      }
      case 'sbd':
        if (value !== '1' && value !== '0') throw bad(tbs, `"${raw}" must be sbd:1 or sbd:0`);
        out.sortByDate = value === '1';
        break;
      case 'cdr':
        if (value !== '1') throw bad(tbs, `"${raw}" must be cdr:1`);
        cdr = true;
        break;
      case 'cd_min':
        out.from = parseDay(tbs, value, false);
        break;
      case 'cd_max':
        out.to = parseDay(tbs, value, true);
        break;
      default:
        throw bad(tbs, `"${raw}" is not a known part`);
    }
  }
  if ((out.from || out.to) && !cdr) throw bad(tbs, 'cd_min and cd_max need cdr:1');
  if (cdr && !out.from && !out.to) throw bad(tbs, 'cdr:1 needs cd_min or cd_max');
  if (out.from && out.to && out.from > out.to) throw bad(tbs, 'cd_min is after cd_max');
  if (out.qdr && (out.from || out.to)) throw bad(tbs, 'use either qdr or a cdr range, not both');
  return out;
}

/** The earliest and latest publication time a filter allows, ms since epoch (undefined: open). */
export function timeBounds(filter: TimeFilter | undefined, now = Date.now()): { from?: number; to?: number } {
  if (!filter) return {};
  if (filter.qdr) return { from: now - UNIT_MS[filter.qdr.unit] * filter.qdr.n };
  return { from: filter.from?.getTime(), to: filter.to?.getTime() };
}

/** `YYYY-MM-DD` of a date (UTC). */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * The coarsest named period covering the filter: what providers with fixed periods (SearXNG
 * `time_range`, Brave `freshness` pd/pw/pm/py) can express. Hours round up to a day.
 */
export function coarsePeriod(filter: TimeFilter | undefined): 'day' | 'week' | 'month' | 'year' | undefined {
  if (!filter?.qdr) return undefined;
  const ms = UNIT_MS[filter.qdr.unit] * filter.qdr.n;
  if (ms <= UNIT_MS.d) return 'day';
  if (ms <= UNIT_MS.w) return 'week';
  if (ms <= UNIT_MS.m) return 'month';
  return 'year';
}
