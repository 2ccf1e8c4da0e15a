/**
 * Monitor schedules (compat.md §15): `{cron | text, timezone = "UTC"}`. `cron` is a five-field cron
 * expression (or a croner nickname such as `@hourly`); `text` is a short English phrase ("every 6
 * hours", "hourly", "daily at 9:00", "every monday at 10am") turned into the cron it means. Both are
 * checked with croner, which also computes the next run in the schedule's time zone.
 */
import { Cron } from 'croner';
import { TrawlError } from '../errors.ts';

export interface ScheduleInput {
  cron?: string;
  text?: string;
  timezone?: string;
}

/** A checked schedule: the cron that runs (always set), the text it came from, the IANA time zone. */
export interface Schedule {
  cron: string;
  text?: string;
  timezone: string;
}

const bad = (message: string) => new TrawlError('BAD_REQUEST', message);
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** "9", "9:30", "9am", "9:30 pm", "21:05" → [hour, minute]; undefined when not a time. */
function timeOf(s: string): [number, number] | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(s.trim());
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  if (m[3]) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 ? [hour, minute] : undefined;
}

/**
 * Turns a schedule phrase into a cron expression.
 * @throws TrawlError BAD_REQUEST naming the phrases understood
 */
export function textToCron(text: string): string {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ').replace(/^run /, '');
  const [phrase, at] = t.split(/ at /);
  const time = at === undefined ? [0, 0] : timeOf(at);
  if (!time) throw bad(`schedule.text: "${at}" is not a time of day; write e.g. "daily at 9:00" or "daily at 9pm".`);
  const [hour, minute] = time;
  const every = /^every (\d+) ?(minutes?|mins?|hours?|hrs?|days?)$/.exec(phrase);
  if (every) {
    const n = Number(every[1]);
    const unit = every[2][0];
    const max = unit === 'm' ? 59 : unit === 'h' ? 23 : 31;
    if (n < 1 || n > max) throw bad(`schedule.text: "every ${n}" must be 1 to ${max} for that unit.`);
    if (unit === 'm') return n === 1 ? '* * * * *' : `*/${n} * * * *`;
    if (unit === 'h') return n === 1 ? '0 * * * *' : `0 */${n} * * *`;
    return `${minute} ${hour} ${n === 1 ? '*' : `*/${n}`} * *`;
  }
  if (['every minute', 'minutely'].includes(phrase)) return '* * * * *';
  if (['hourly', 'every hour'].includes(phrase)) return '0 * * * *';
  if (['daily', 'every day', 'each day'].includes(phrase)) return `${minute} ${hour} * * *`;
  if (['weekdays', 'every weekday', 'on weekdays'].includes(phrase)) return `${minute} ${hour} * * 1-5`;
  if (['weekly', 'every week'].includes(phrase)) return `${minute} ${hour} * * 1`;
  if (['monthly', 'every month'].includes(phrase)) return `${minute} ${hour} 1 * *`;
  const day = /^(?:every|on|each) (\w+?)s?$/.exec(phrase);
  if (day && DAYS.includes(day[1])) return `${minute} ${hour} * * ${DAYS.indexOf(day[1])}`;
  throw bad(
    `schedule.text "${text}" is not understood. Write e.g. "every 30 minutes", "every 6 hours", "hourly", "daily at 9:00", ` +
      '"weekdays at 8am", "every monday at 10:00", "weekly", "monthly", or send schedule.cron instead.',
  );
}

/**
 * Whether `tz` is an IANA time zone this runtime knows.
 */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a schedule and resolves `text` to its cron.
 * @throws TrawlError BAD_REQUEST for neither or both of cron/text, an invalid cron (six-field
 *         second-level crons included: the smallest step is a minute) or an unknown time zone
 */
export function resolveSchedule(input: ScheduleInput | undefined): Schedule {
  if (!input || typeof input !== 'object') throw bad('schedule is required: send { "cron": "0 */6 * * *" } or { "text": "every 6 hours" }.');
  const timezone = input.timezone?.trim() || 'UTC';
  if (!isTimeZone(timezone)) throw bad(`schedule.timezone "${input.timezone}" is not a known IANA time zone such as "UTC" or "Europe/Berlin".`);
  const hasCron = typeof input.cron === 'string' && input.cron.trim() !== '';
  const hasText = typeof input.text === 'string' && input.text.trim() !== '';
  if (hasCron === hasText) throw bad('schedule needs exactly one of cron (e.g. "0 */6 * * *") or text (e.g. "every 6 hours").');
  const cron = hasCron ? input.cron!.trim().replace(/\s+/g, ' ') : textToCron(input.text!);
  if (!cron.startsWith('@') && cron.split(' ').length !== 5) {
    throw bad(`schedule.cron "${input.cron}" must have five fields (minute hour day-of-month month day-of-week), e.g. "*/30 * * * *".`);
  }
  try {
    new Cron(cron, { timezone, paused: true });
  } catch (e) {
    throw bad(`schedule.cron "${cron}" is not a valid cron expression: ${(e as Error).message}`);
  }
  return { cron, timezone, ...(hasText ? { text: input.text!.trim() } : {}) };
}

/**
 * The first run of a schedule strictly after `after`.
 * @returns the time, or undefined when the cron never fires again (e.g. a date in the past)
 */
export function nextRunAfter(schedule: Pick<Schedule, 'cron' | 'timezone'>, after: Date): Date | undefined {
  return new Cron(schedule.cron, { timezone: schedule.timezone, paused: true }).nextRun(after) ?? undefined;
}
