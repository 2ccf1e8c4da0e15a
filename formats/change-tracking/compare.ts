/**
 * The two comparisons of the `changeTracking` format (formats/change-tracking.ts): a unified diff of
 * two markdown texts made with jsdiff (`diff`), returned as text and in the parse-diff structure the
 * firecrawl SDK types (`changeTracking.diff.json`), and a field-by-field comparison of two JSON
 * answers (`changeTracking.json`).
 */
import { structuredPatch } from 'diff';
import type { DiffChange, GitDiff, JsonFieldChanges } from '../../core/page-versions/index.ts';

/** Lines of context around each change in a hunk (git's default). */
const CONTEXT_LINES = 3;

/** Text ending in exactly one newline, so the diff carries no "No newline at end of file" markers. */
const withNewline = (text: string) => `${text.replace(/\n+$/, '')}\n`;

/**
 * The `git-diff` mode answer: a unified diff (`--- previous`, `+++ current`, `@@` hunks with 3 lines
 * of context) of `previous` to `current`, and the same as parse-diff JSON (`files[].chunks[].changes[]`
 * with `ln` for added/deleted lines, `ln1`/`ln2` for context lines, 1-based).
 */
export function gitDiff(previous: string, current: string): GitDiff {
  const patch = structuredPatch('previous', 'current', withNewline(previous), withNewline(current), undefined, undefined, { context: CONTEXT_LINES });
  const lines = ['--- previous', '+++ current'];
  let additions = 0;
  let deletions = 0;
  const chunks = patch.hunks.map((h) => {
    const header = `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
    lines.push(header);
    let oldLine = h.oldStart;
    let newLine = h.newStart;
    const changes: DiffChange[] = [];
    for (const line of h.lines) {
      if (line.startsWith('\\')) continue; // "\ No newline at end of file": not a line of the page
      lines.push(line);
      if (line.startsWith('+')) {
        changes.push({ type: 'add', add: true, ln: newLine++, content: line });
        additions++;
      } else if (line.startsWith('-')) {
        changes.push({ type: 'del', del: true, ln: oldLine++, content: line });
        deletions++;
      } else {
        changes.push({ type: 'normal', normal: true, ln1: oldLine++, ln2: newLine++, content: line });
      }
    }
    return { content: header, changes, oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines };
  });
  return { text: `${lines.join('\n')}\n`, json: { files: [{ from: 'previous', to: 'current', chunks, additions, deletions }] } };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values (key order ignored). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!same(a[k] ?? null, b[k] ?? null)) return false;
    return true;
  }
  return false;
}

/**
 * The `json` mode answer: every field whose value differs between the two answers, by dotted path
 * for nested objects (`offers.price`); arrays and scalars are compared whole. A field missing on one
 * side counts as null there. Equal answers give `{}`.
 */
export function jsonChanges(previous: unknown, current: unknown, prefix = ''): JsonFieldChanges {
  const out: JsonFieldChanges = {};
  if (!isPlainObject(previous) || !isPlainObject(current)) {
    if (!same(previous ?? null, current ?? null)) {
      if (prefix === '' && (isPlainObject(previous) || isPlainObject(current))) {
        // One side has no answer (a version kept without json mode): every field of the other changed.
        return jsonChanges(isPlainObject(previous) ? previous : {}, isPlainObject(current) ? current : {});
      }
      out[prefix || '$'] = { previous: previous ?? null, current: current ?? null };
    }
    return out;
  }
  const keys = [...new Set([...Object.keys(previous), ...Object.keys(current)])];
  for (const key of keys) {
    const path = prefix ? `${prefix}.${key}` : key;
    const a = previous[key] ?? null;
    const b = current[key] ?? null;
    if (isPlainObject(a) && isPlainObject(b)) Object.assign(out, jsonChanges(a, b, path));
    else if (!same(a, b)) out[path] = { previous: a, current: b };
  }
  return out;
}
