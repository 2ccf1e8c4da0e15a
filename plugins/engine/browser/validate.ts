/**
 * Request-time validation of the `actions` list (interface.md "Action types"; compat.md §2.2
 * "Validation": at most 50 actions, total wait at most 60 s). The TypeBox model in
 * core/http/models/scrape.ts checks field shapes; this pure function adds the rules a schema cannot say
 * (exactly one of `milliseconds`/`selector`, the wait budget) and re-checks shapes so the engine is safe
 * when called directly. The pipeline calls it before queueing; the browser engine calls it again.
 */
import { TrawlError } from '../../../core/errors.ts';
import type { Action } from '../../../core/scrape/actions.ts';

/** Most actions one scrape may carry (compat.md §2.2). */
export const MAX_ACTIONS = 50;
/** Sum of `wait.milliseconds` allowed in one scrape, ms (compat.md §2.2). */
export const MAX_TOTAL_WAIT_MS = 60_000;

export const ACTION_TYPES = [
  'wait',
  'screenshot',
  'click',
  'write',
  'press',
  'scroll',
  'scrape',
  'executeJavascript',
  'pdf',
] as const;

export const PDF_FORMATS = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'] as const;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPosInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 1;
const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;

/**
 * Checks an `actions` list and returns it typed.
 *
 * Rules: an array of at most 50 objects with a known `type`; `wait` has exactly one of `milliseconds`
 * (integer ≥ 1) or `selector` (non-empty string) and nothing else; the `milliseconds` of all waits add up
 * to at most 60000; `click.selector`, `press.key` are non-empty strings; `write.text` and
 * `executeJavascript.script` are strings; `screenshot.quality` is 1..100 and `viewport` has positive
 * integer `width`/`height`; `scroll.direction` is `up`/`down`; `pdf.format` is one of A0..A6, Letter,
 * Legal, Tabloid, Ledger and `scale` is in (0, 2].
 *
 * @param actions the request's `actions` value (undefined means none)
 * @returns the same list, typed
 * @throws TrawlError BAD_REQUEST (400) naming the action as `actions[i] (type)` and the broken rule
 */
export function validateActions(actions: unknown): Action[] {
  if (actions === undefined || actions === null) return [];
  if (!Array.isArray(actions)) throw bad('actions must be an array');
  if (actions.length > MAX_ACTIONS) throw bad(`at most ${MAX_ACTIONS} actions are allowed, got ${actions.length}`);
  let totalWait = 0;
  actions.forEach((a, i) => {
    if (!isObj(a)) throw bad(`actions[${i}] must be an object`);
    const type = a.type;
    if (typeof type !== 'string' || !(ACTION_TYPES as readonly string[]).includes(type)) {
      throw bad(`actions[${i}]: unknown action type ${JSON.stringify(type)} (expected one of ${ACTION_TYPES.join(', ')})`);
    }
    const at = `actions[${i}] (${type})`;
    switch (type) {
      case 'wait': {
        const hasMs = a.milliseconds !== undefined;
        const hasSel = a.selector !== undefined;
        if (hasMs === hasSel) throw bad(`${at}: exactly one of milliseconds or selector is required`);
        if (hasMs && !isPosInt(a.milliseconds)) throw bad(`${at}: milliseconds must be an integer of at least 1`);
        if (hasSel && !nonEmpty(a.selector)) throw bad(`${at}: selector must be a non-empty CSS selector`);
        const extra = Object.keys(a).filter((k) => !['type', 'milliseconds', 'selector'].includes(k));
        if (extra.length > 0) throw bad(`${at}: unexpected field ${extra.join(', ')}`);
        if (hasMs) totalWait += a.milliseconds as number;
        break;
      }
      case 'screenshot': {
        if (a.fullPage !== undefined && typeof a.fullPage !== 'boolean') throw bad(`${at}: fullPage must be a boolean`);
        if (a.quality !== undefined && !(isPosInt(a.quality) && (a.quality as number) <= 100)) {
          throw bad(`${at}: quality must be an integer from 1 to 100`);
        }
        if (a.viewport !== undefined) {
          const v = a.viewport;
          if (!isObj(v) || !isPosInt(v.width) || !isPosInt(v.height) || (v.width as number) > 7680 || (v.height as number) > 4320) {
            throw bad(`${at}: viewport needs integer width (1..7680) and height (1..4320)`);
          }
        }
        break;
      }
      case 'click':
        if (!nonEmpty(a.selector)) throw bad(`${at}: selector is required`);
        if (a.all !== undefined && typeof a.all !== 'boolean') throw bad(`${at}: all must be a boolean`);
        break;
      case 'write':
        if (typeof a.text !== 'string') throw bad(`${at}: text is required`);
        break;
      case 'press':
        if (!nonEmpty(a.key)) throw bad(`${at}: key is required (a key name such as Enter, Tab, ArrowDown)`);
        break;
      case 'scroll':
        if (a.direction !== undefined && a.direction !== 'up' && a.direction !== 'down') {
          throw bad(`${at}: direction must be "up" or "down"`);
        }
        if (a.selector !== undefined && !nonEmpty(a.selector)) throw bad(`${at}: selector must be a non-empty CSS selector`);
        break;
      case 'executeJavascript':
        if (typeof a.script !== 'string') throw bad(`${at}: script is required`);
        break;
      case 'pdf':
        if (a.format !== undefined && !(PDF_FORMATS as readonly unknown[]).includes(a.format)) {
          throw bad(`${at}: format must be one of ${PDF_FORMATS.join(', ')}`);
        }
        if (a.landscape !== undefined && typeof a.landscape !== 'boolean') throw bad(`${at}: landscape must be a boolean`);
        if (a.scale !== undefined && !(typeof a.scale === 'number' && a.scale > 0 && a.scale <= 2)) {
          throw bad(`${at}: scale must be a number greater than 0 and at most 2`);
        }
        break;
    }
  });
  if (totalWait > MAX_TOTAL_WAIT_MS) {
    throw bad(`the wait actions add up to ${totalWait} ms; at most ${MAX_TOTAL_WAIT_MS} ms is allowed`);
  }
  return actions as Action[];
}

function bad(message: string): TrawlError {
  return new TrawlError('BAD_REQUEST', message);
}
