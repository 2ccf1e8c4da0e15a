/**
 * The built-in threat list: a local file of blocked domains (`TRAWL_THREAT_LIST_FILE`), one a line;
 * blank lines and `#` comments are skipped, a leading `*.`, `0.0.0.0 ` or `127.0.0.1 ` (hosts-file
 * form) is accepted. A domain blocks itself and its subdomains. Read once per process.
 */
import { readFile } from 'node:fs/promises';
import { domainToASCII } from 'node:url';
import { defineThreatList } from '../../core/plugin.ts';

export default defineThreatList({
  name: 'local-file',
  configured: (config) => Boolean(config.threatListFile),
  async load(config) {
    const text = await readFile(config.threatListFile!, 'utf8');
    const domains = new Set<string>();
    for (const line of text.split('\n')) {
      const entry = line.replace(/#.*/, '').trim().replace(/^(?:0\.0\.0\.0|127\.0\.0\.1)\s+/, '').replace(/^\*\./, '').toLowerCase();
      const ascii = entry && domainToASCII(entry);
      if (ascii) domains.add(ascii);
    }
    return (host) => {
      // The host, then each parent domain: a.b.example.com, b.example.com, example.com.
      for (let h = host; h.includes('.'); h = h.slice(h.indexOf('.') + 1)) if (domains.has(h)) return h;
      return undefined;
    };
  },
});
