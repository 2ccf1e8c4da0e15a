/**
 * The `zscaler` threat list: what `threatProtection.mode: "zscaler"` checks (compat.md §2.2). Trawl
 * does not call Zscaler's cloud API (it needs an admin session per tenant); it reads the hosts your
 * Zscaler policy blocks from a file, `TRAWL_ZSCALER_LIST_FILE`: one entry a line, a domain
 * (`evil.example`, `*.evil.example`, `.evil.example`) or a URL (`https://evil.example/path`), or a CSV
 * line whose first field is one (the URL list of a custom URL category exported from the Zscaler admin
 * portal); `#` comments and a header line without a host are skipped. A domain blocks itself and its
 * subdomains. Read once per process; an unreadable file makes the list failed (failurePolicy decides).
 */
import { readFile } from 'node:fs/promises';
import { domainToASCII } from 'node:url';
import { defineThreatList } from '../../core/plugin.ts';

/** The host of one line of the file, lower-case ASCII, or undefined for a line without one. */
export function zscalerEntry(line: string): string | undefined {
  let field = line.replace(/#.*/, '').split(/[,;\t]/)[0]!.trim().replace(/^"|"$/g, '').toLowerCase();
  if (!field) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(field)) field = field.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  field = field.replace(/[/?#].*$/, '').replace(/:\d+$/, '').replace(/^\*?\./, '').replace(/\.$/, '');
  const ascii = field.includes('.') ? domainToASCII(field) : '';
  return ascii || undefined;
}

export default defineThreatList({
  name: 'zscaler',
  configured: (config) => Boolean(config.zscalerListFile),
  async load(config) {
    const text = await readFile(config.zscalerListFile!, 'utf8');
    const hosts = new Set<string>();
    for (const line of text.split('\n')) {
      const host = zscalerEntry(line);
      if (host) hosts.add(host);
    }
    return (host) => {
      for (let h = host; h.includes('.'); h = h.slice(h.indexOf('.') + 1)) if (hosts.has(h)) return h;
      return undefined;
    };
  },
});
