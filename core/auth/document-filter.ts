/**
 * Stored documents read back by a format-restricted key (interface.md Authentication 4; issue 15
 * item 11): a key may only receive the formats it may request, even when the team's document was
 * made by another key with more formats. `GET /v2/scrape/{id}` (and `/v1`) and the crawl and batch
 * status reads (and their WebSocket) pass stored bodies through `documentForKey`.
 */
import type { Principal } from './authenticate.ts';

/** Fields of every document that are no format's output: kept whatever the key's formats. */
const ALWAYS_KEPT = new Set(['metadata', 'warning', 'pages', 'blocks']);

/**
 * The document as the key may see it. Unrestricted keys get the stored text unchanged (byte
 * stability, compat.md §3); a restricted key gets only `metadata`, `warning`, the parser's `pages` and
 * `blocks`, the fields of its allowed formats, and of `actions` only the screenshots when it may
 * have screenshots (content actions are never allowed to restricted keys; core/http/guard.ts).
 * @param body the stored document (JSON text)
 * @returns JSON text of the document
 */
export function documentForKey(body: string, principal: Pick<Principal, 'allowedFormats'>): string {
  const allowed = principal.allowedFormats;
  if (allowed.length === 0) return body;
  const doc = JSON.parse(body) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(doc)) {
    if (ALWAYS_KEPT.has(field) || allowed.includes(field)) out[field] = value;
  }
  const actions = doc.actions as { screenshots?: unknown } | undefined;
  if (actions && allowed.includes('screenshot') && actions.screenshots !== undefined) out.actions = { screenshots: actions.screenshots };
  return JSON.stringify(out);
}
