/**
 * The deterministic `onlyCleanContent` cleaner (interface.md onlyCleanContent; issue 18 scope 3),
 * used when no language model is configured: it drops residual boilerplate lines from the markdown
 * that main-content extraction left in, keeping everything else as it was:
 * - cookie and consent notices, newsletter and sign-up prompts, copyright and "all rights reserved"
 *   lines, "skip to content" / "back to top" links;
 * - share bars (a line of share / tweet / social network names);
 * - link-only lines (navigation: a line made of two or more links and separators only);
 * - short lines repeated on the page (a menu shown at top and bottom), after the first occurrence.
 * Code blocks are left alone. Consecutive blank lines left behind collapse to one.
 */

const BOILERPLATE = [
  /\b(cookies?|consent)\b.*\b(accept|agree|use|policy|settings|preferences|continu)/i,
  /\b(accept|reject|manage)\s+(all\s+)?cookies\b/i,
  /\b(subscribe|sign\s*up)\b.*\b(newsletter|updates|inbox)\b/i,
  /(©|\(c\)|copyright\b).*\d{4}|\ball rights reserved\b/i,
  /^\W*(skip to (main )?content|back to top|jump to navigation)\W*$/i,
  /^\W*(share( this)?( on| via)?|tweet|pin it)\b.*\b(facebook|twitter|x|linkedin|whatsapp|email|pinterest|reddit)\b/i,
  /^(\W*(facebook|twitter|linkedin|whatsapp|pinterest|reddit|email|share|tweet)\W*){2,}$/i,
];

/** A line made only of markdown links and separators (`[a](x) | [b](y)`), two links or more. */
function linkOnly(line: string): boolean {
  const links = line.match(/\[[^\]]*\]\([^)]*\)/g);
  if (!links || links.length < 2) return false;
  return line.replace(/!?\[[^\]]*\]\([^)]*\)/g, '').replace(/[\s|·•,\-–—/>*]+/g, '') === '';
}

/**
 * Cleans markdown (see the header).
 * @returns the cleaned markdown and how many lines were dropped
 */
export function cleanMarkdown(markdown: string): { markdown: string; dropped: number } {
  const seen = new Set<string>();
  const out: string[] = [];
  let dropped = 0;
  let fence = false;
  for (const line of markdown.split('\n')) {
    const t = line.trim();
    if (t.startsWith('```')) fence = !fence;
    if (fence || t.startsWith('```') || !t) {
      out.push(line);
      continue;
    }
    const body = t.replace(/^(?:[-*+]|\d+[.)]|>)\s+/, '');
    const short = body.length <= 80 && !/^#/.test(t);
    if (BOILERPLATE.some((re) => re.test(body)) || linkOnly(body) || (short && seen.has(body))) {
      dropped++;
      continue;
    }
    if (short) seen.add(body);
    out.push(line);
  }
  return { markdown: out.join('\n').replace(/\n{3,}/g, '\n\n').trim(), dropped };
}
