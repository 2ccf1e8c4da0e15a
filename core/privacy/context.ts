/**
 * Small text helpers the detectors share: the words around a span (for cues such as "Tel." before a
 * number or "ISBN" before a code), Shannon entropy, and a global-regex iterator with offsets.
 */

/** The `chars` characters before `start`, lower-cased, on the same line. */
export function before(text: string, start: number, chars = 40): string {
  const from = Math.max(0, start - chars);
  const slice = text.slice(from, start);
  const nl = slice.lastIndexOf('\n');
  return (nl >= 0 ? slice.slice(nl + 1) : slice).toLowerCase();
}

/** The `chars` characters after `end`, lower-cased, on the same line. */
export function after(text: string, end: number, chars = 40): string {
  const slice = text.slice(end, end + chars);
  const nl = slice.indexOf('\n');
  return (nl >= 0 ? slice.slice(0, nl) : slice).toLowerCase();
}

/** Shannon entropy of `s` in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** How many of lower, upper, digit, symbol occur in `s` (0–4). */
export function charClasses(s: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(s)).length;
}

/** Every match of a global regex, with its index. */
export function* matches(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) re.lastIndex++;
    yield m;
  }
}

/** The `[start, end)` ranges of fenced and indented code blocks and inline code spans in markdown. */
export function codeRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of matches(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, text)) out.push([m.index, m.index + m[0].length]);
  for (const m of matches(/`[^`\n]+`/g, text)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** Whether `[start, end)` lies inside one of `ranges`. */
export function inside(ranges: [number, number][], start: number, end: number): boolean {
  return ranges.some(([a, b]) => start >= a && end <= b);
}
