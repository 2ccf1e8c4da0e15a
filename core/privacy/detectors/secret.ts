/**
 * SECRET detector:
 * - API keys and tokens by their providers' documented prefixes (AWS, GitHub, GitLab, Slack, Stripe
 *   secret and restricted keys, Google, OpenAI, Anthropic, SendGrid, Twilio, npm, PyPI, Hugging Face,
 *   Shopify, Firecrawl, DigitalOcean …) and the token part of Slack and Discord webhook URLs.
 *   Publishable keys (`pk_…`) are not secrets.
 * - PEM / OpenSSH private-key blocks, JWTs (`eyJ….eyJ….sig`), passwords in URLs (`://user:pw@`).
 * - Values assigned to a secret-looking name (`API_KEY=`, `"token": "…"`, `password:`) that are not
 *   placeholders and look random (entropy, mixed character classes); `aggressive` mode also takes
 *   any long high-entropy string literal inside code, `fast` mode only the prefixes and blocks.
 * Hex digests (commit ids, sha256), UUIDs and `sha512-…` integrity strings are never reported.
 */
import type { Detector, Finding, PiiMode } from '../types.ts';
import { charClasses, codeRanges, entropy, inside, matches } from '../context.ts';

const PREFIXED = new RegExp(
  [
    String.raw`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b`,
    String.raw`\bgh[pousr]_[A-Za-z0-9]{36,255}\b`,
    String.raw`\bgithub_pat_[A-Za-z0-9_]{60,255}\b`,
    String.raw`\bglpat-[A-Za-z0-9_-]{20,}\b`,
    String.raw`\bxox[baprse]-[A-Za-z0-9-]{10,}`,
    String.raw`\bxapp-\d-[A-Za-z0-9-]{10,}`,
    String.raw`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b`,
    String.raw`\bwhsec_[A-Za-z0-9]{24,}\b`,
    String.raw`\bAIza[0-9A-Za-z_-]{35}(?![\w-])`,
    String.raw`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}(?![\w-])`,
    String.raw`\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}(?![\w-])`,
    String.raw`\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}\b`,
    String.raw`\bSK[0-9a-f]{32}\b`,
    String.raw`\bnpm_[A-Za-z0-9]{36,}\b`,
    String.raw`\bpypi-[A-Za-z0-9_-]{50,}\b`,
    String.raw`\bhf_[A-Za-z]{34}\b`,
    String.raw`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`,
    String.raw`\bfc-[0-9a-f]{32}\b`,
    String.raw`\bdop_v1_[a-f0-9]{64}\b`,
    String.raw`\b[a-z]{2,8}_(?:live|prod)_[A-Za-z0-9]{20,}\b`,
    String.raw`(?<=hooks\.slack\.com/(?:services|workflows)/T[A-Z0-9]+/B[A-Z0-9]+/)[A-Za-z0-9]{20,}`,
    String.raw`(?<=discord(?:app)?\.com/api/webhooks/\d+/)[A-Za-z0-9_-]{40,}`,
  ].join('|'),
  'g',
);
const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s@/]{3,})@/gi;
const NAME = String.raw`[\w.-]*(?:secret|token|passw(?:or)?d|passwd|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?key|credential)s?[\w.-]*`;
const ASSIGNED = new RegExp(String.raw`(?<![\w])["']?(${NAME})["']?\s*(?:=|:|=>)\s*(["']?)([^\s"'\`,;]{8,})\2`, 'gi');
const PROSE = /\b(?:password|passwort|mot de passe|api key|token|secret)\b[^\n:]{0,40}?(?::|\bwas\b|\bis\b)\s+([^\s"'`,]{8,})/gi;
const LITERAL = /(["'])([^"'\s]{20,})\1/g;
const PLACEHOLDER = /your|example|placeholder|changeme|xxx|\*\*\*|<|>|\.\.\.|\$\{|\{\{|process\.env|os\.environ|getenv|env\[|^[a-z_]+$|^[A-Z_]+$|^\w+\(/i;

/** Hex digests, UUIDs, integrity strings and data URLs: long and random-looking, not secret. */
function notSecret(v: string): boolean {
  return /^(?:[0-9a-f]{7,}|[0-9A-F]{7,})$/.test(v) || /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(v) || /^sha\d*[-=]/i.test(v) || /^data:/.test(v) || /^https?:\/\//.test(v);
}

/** Whether an assigned value looks like a real secret rather than a word, number or placeholder. */
function looksSecret(v: string, mode: PiiMode): boolean {
  if (PLACEHOLDER.test(v) || notSecret(v) || /^\d+$/.test(v) || /^v?\d+(?:\.\d+)+/.test(v)) return false;
  const minEntropy = mode === 'aggressive' ? 2.8 : 3.2;
  return charClasses(v) >= 3 && entropy(v) >= minEntropy;
}

/** Finds secrets; see the file header. */
export function detectSecrets(text: string, mode: PiiMode): Finding[] {
  const out: Finding[] = [];
  const add = (start: number, end: number) => out.push({ type: 'SECRET', start, end });
  for (const m of matches(PRIVATE_KEY, text)) add(m.index, m.index + m[0].length);
  for (const m of matches(PREFIXED, text)) add(m.index, m.index + m[0].length);
  for (const m of matches(JWT, text)) add(m.index, m.index + m[0].length);
  if (mode === 'fast') return out;
  for (const m of matches(URL_PASSWORD, text)) {
    const start = m.index + m[0].length - 1 - m[1]!.length;
    add(start, start + m[1]!.length);
  }
  for (const m of matches(ASSIGNED, text)) {
    const v = m[3]!;
    if (!looksSecret(v, mode)) continue;
    const start = m.index + m[0].lastIndexOf(v);
    add(start, start + v.length);
  }
  for (const m of matches(PROSE, text)) {
    const v = m[1]!;
    if (!looksSecret(v, mode)) continue;
    const start = m.index + m[0].lastIndexOf(v);
    add(start, start + v.length);
  }
  if (mode === 'aggressive') {
    const code = codeRanges(text);
    for (const m of matches(LITERAL, text)) {
      const v = m[2]!;
      const start = m.index + 1;
      if (!inside(code, start, start + v.length) || notSecret(v) || PLACEHOLDER.test(v)) continue;
      if (charClasses(v) >= 3 && entropy(v) >= 4) add(start, start + v.length);
    }
  }
  return out;
}

export default { type: 'SECRET', detect: detectSecrets } satisfies Detector;
