/**
 * Detects pages that need JavaScript to show their content: an HTML shell whose body holds almost no
 * text but does load scripts (single-page apps). The scrape pipeline retries such a fetch result in
 * the browser engine when one is available.
 */

const SCRIPT_RE = /<script\b[^>]*>/gi;

/**
 * True when `html` looks like a client-rendered shell.
 * @param html raw HTML as fetched
 */
export function needsJavaScript(html: string): boolean {
  const scripts = html.match(SCRIPT_RE)?.length ?? 0;
  if (scripts === 0) return false;
  const bodyStart = html.search(/<body\b/i);
  const body = bodyStart >= 0 ? html.slice(bodyStart) : html;
  const text = body
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length >= 200) return false;
  // A noscript "enable JavaScript" notice or an empty app root is the usual shape.
  return /<(div|main)\b[^>]*\bid=["']?(root|app|__next|__nuxt|main)["'\s>]/i.test(body) || text.length < 40;
}
