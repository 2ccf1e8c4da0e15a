/**
 * `includePaths` / `excludePaths` of a crawl: RE2 regular expressions (re2js), so matching time is
 * linear whatever the pattern. Look-around and backreferences are not RE2 and are refused with a 400
 * that says so; the size limits of interface.md "Limits" (crawl path patterns) are enforced here.
 */
import { RE2JS } from 're2js';
import { TrawlError } from '../errors.ts';

/** interface.md Limits: per field, per pattern, and both fields together. */
export const PATTERN_LIMITS = { perField: 1000, chars: 2000, total: 1000, totalChars: 100_000 } as const;

/** A compiled pattern: `test` searches anywhere in the input, like JavaScript's `RegExp.test`. */
export interface PathPattern {
  source: string;
  test(input: string): boolean;
}

const LOOKAROUND = /\(\?<?[=!]/;
const BACKREFERENCE = /\\(?:[1-9]|k<)/;

function bad(message: string): TrawlError {
  return new TrawlError('BAD_REQUEST', message);
}

/** The source without escaped backslashes and parentheses, so `\\(?=` is not read as look-around. */
function stripEscapes(source: string): string {
  return source.replace(/\\\\/g, '').replace(/\\[()]/g, '');
}

/**
 * Compiles one pattern.
 * @param field name used in the error message (`includePaths`)
 * @throws TrawlError BAD_REQUEST naming the field, index and what RE2 cannot do
 */
export function compilePattern(source: string, field: string, index: number): PathPattern {
  const where = `${field}[${index}]`;
  if (typeof source !== 'string') throw bad(`${where} must be a string`);
  if (source.length > PATTERN_LIMITS.chars) {
    throw bad(`${where} is ${source.length} characters long; a pattern may have at most ${PATTERN_LIMITS.chars}.`);
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (e) {
    // RE2 refuses these; say why in words rather than with the parser's message.
    if (LOOKAROUND.test(stripEscapes(source))) {
      throw bad(`${where} "${source.slice(0, 100)}" uses look-around ((?=, (?!, (?<=, (?<!), which RE2 patterns do not support. Rewrite it without look-around, or move the negative part to excludePaths.`);
    }
    if (BACKREFERENCE.test(source.replace(/\\\\/g, ''))) {
      throw bad(`${where} "${source.slice(0, 100)}" uses a backreference (\\1, \\k<name>), which RE2 patterns do not support.`);
    }
    throw bad(`${where} "${source.slice(0, 100)}" is not a valid RE2 regular expression: ${(e as Error).message}`);
  }
  return { source, test: (input) => re.matcher(input).find() };
}

/**
 * Validates and compiles both pattern lists (interface.md Limits: at most 1000 patterns per field,
 * each at most 2000 characters, together at most 1000 patterns and 100000 characters).
 * @throws TrawlError BAD_REQUEST
 */
export function compilePatterns(includePaths: string[] = [], excludePaths: string[] = []): { include: PathPattern[]; exclude: PathPattern[] } {
  for (const [field, list] of [['includePaths', includePaths], ['excludePaths', excludePaths]] as const) {
    if (!Array.isArray(list)) throw bad(`${field} must be an array of strings`);
    if (list.length > PATTERN_LIMITS.perField) {
      throw bad(`${field} has ${list.length} patterns; at most ${PATTERN_LIMITS.perField} are allowed.`);
    }
  }
  if (includePaths.length + excludePaths.length > PATTERN_LIMITS.total) {
    throw bad(`includePaths and excludePaths have ${includePaths.length + excludePaths.length} patterns together; at most ${PATTERN_LIMITS.total} are allowed.`);
  }
  const chars = [...includePaths, ...excludePaths].reduce((n, p) => n + String(p).length, 0);
  if (chars > PATTERN_LIMITS.totalChars) {
    throw bad(`includePaths and excludePaths have ${chars} characters together; at most ${PATTERN_LIMITS.totalChars} are allowed.`);
  }
  return {
    include: includePaths.map((p, i) => compilePattern(p, 'includePaths', i)),
    exclude: excludePaths.map((p, i) => compilePattern(p, 'excludePaths', i)),
  };
}
