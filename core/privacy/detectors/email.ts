/**
 * EMAIL detector: addresses in plain text, markdown and `mailto:` link targets, and in `accurate` and
 * `aggressive` mode the common obfuscations (`name [at] host [dot] tld`, `name(at)host.tld`).
 * Left alone: Mastodon handles (`@user@host`), scp-style git remotes (`git@host:path`), the user info
 * of a URL (`https://key@sentry.io/1`, a secret's business if anything), image names
 * such as `logo@2x.png`, package specs such as `pkg@1.2.3`.
 */
import type { Detector, Finding, PiiMode } from '../types.ts';
import { matches } from '../context.ts';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const PLAIN = new RegExp(`(?<![\\w.+%@-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:${LABEL}\\.)+[A-Za-z]{2,24}(?![\\w-]|\\.[A-Za-z0-9])`, 'g');
const AT = String.raw`\s*(?:\[at\]|\(at\)|\{at\})\s*`;
const DOT = String.raw`(?:\s*(?:\[dot\]|\(dot\)|\{dot\})\s*|\.)`;
const OBFUSCATED = new RegExp(
  `(?<![\\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}${AT}(?:${LABEL}${DOT})+[A-Za-z]{2,24}\\b`,
  'gi',
);
/** File extensions that look like top-level domains after an `@` (`icon@2x.png`). */
const FILE_TLDS = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'ico', 'js', 'mjs', 'ts', 'css', 'zip', 'gz', 'tgz', 'pdf', 'json', 'md', 'html', 'txt', 'git']);

/** Finds email addresses; see the file header for what is left alone. */
export function detectEmails(text: string, mode: PiiMode): Finding[] {
  const out: Finding[] = [];
  for (const m of matches(PLAIN, text)) {
    const end = m.index + m[0].length;
    const tld = m[0].slice(m[0].lastIndexOf('.') + 1).toLowerCase();
    if (mode !== 'fast') {
      if (FILE_TLDS.has(tld)) continue;
      if (/:\/\/[^\s/?#@]*$/.test(text.slice(Math.max(0, m.index - 200), m.index))) continue; // user info of a URL (https://key@host)
      if (/^:[\w~/.-]/.test(text.slice(end, end + 2))) continue; // git@github.com:org/repo
    }
    out.push({ type: 'EMAIL', start: m.index, end });
  }
  if (mode === 'fast') return out;
  for (const m of matches(OBFUSCATED, text)) {
    if (out.some((f) => f.start <= m.index && f.end > m.index)) continue;
    out.push({ type: 'EMAIL', start: m.index, end: m.index + m[0].length });
  }
  return out;
}

export default { type: 'EMAIL', detect: detectEmails } satisfies Detector;
