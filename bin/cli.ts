/**
 * The client commands of the executable (issue 24 scope 1): `trawl scrape|map|search|crawl`, run
 * in-process on the embedded default (the data dir) or against a server with `--server URL
 * --api-key KEY` (or TRAWL_API_URL / TRAWL_API_KEY). Exit codes: 0 done, 1 the API refused or the
 * work failed (message on stderr), 2 usage error.
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { enterProductionMode, type ResolvedConfig } from '../core/config.ts';
import { crawlToDir } from '../core/cli/crawl.ts';

const COMMON = `  --server URL     a Trawl server (default: in-process on TRAWL_DATA_DIR; or TRAWL_API_URL)
  --api-key KEY    the API key sent (or TRAWL_API_KEY; not needed with TRAWL_AUTH=off)
  -h, --help       this help`;

const HELP: Record<string, string> = {
  scrape: `Usage: trawl scrape URL [--format NAME ...] [--json]\n\nPrints the page as markdown, or the formats asked for (--format markdown|html|links|...; repeatable).\n  --format NAME    a format (default markdown)\n  --json           print the whole document as JSON\n${COMMON}`,
  map: `Usage: trawl map URL [--search TERM] [--limit N]\n\nPrints the site's URLs, one a line.\n  --search TERM    keep URLs matching TERM\n  --limit N        at most N URLs\n  --json           print the API answer as JSON\n${COMMON}`,
  search: `Usage: trawl search QUERY [--limit N] [--json]\n\nPrints the results: title, URL, description.\n  --limit N        at most N results\n  --json           print the API answer as JSON\n${COMMON}`,
  crawl: `Usage: trawl crawl URL -o DIR [--limit N] [--include-paths RE ...] [--exclude-paths RE ...] [--max-depth N]\n\nWrites one markdown file per page into DIR with a progress bar (plain lines when stderr is not a\nterminal). Run it again with the same URL and DIR to resume an interrupted crawl.\n  -o, --output DIR      where pages are written (required)\n  --limit N             at most N pages\n  --include-paths RE    only paths matching RE (repeatable)\n  --exclude-paths RE    skip paths matching RE (repeatable)\n  --max-depth N         maxDiscoveryDepth\n${COMMON}`,
};

/** The client commands' names. */
export const CLI_COMMANDS = Object.keys(HELP);

class Usage extends Error {}

const int = (v: string | undefined, name: string) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Usage(`--${name} must be a positive integer, got "${v}"`);
  return n;
};

/** Runs one client command; returns the exit code. */
export async function cliMain(command: string, argv: string[], config: ResolvedConfig): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        format: { type: 'string', multiple: true },
        server: { type: 'string' },
        'api-key': { type: 'string' },
        output: { type: 'string', short: 'o' },
        limit: { type: 'string' },
        search: { type: 'string' },
        'include-paths': { type: 'string', multiple: true },
        'exclude-paths': { type: 'string', multiple: true },
        'max-depth': { type: 'string' },
      },
    });
  } catch (e) {
    process.stderr.write(`trawl ${command}: ${(e as Error).message}\n\n${HELP[command]}\n`);
    return 2;
  }
  const { values: o, positionals } = parsed;
  if (o.help) {
    process.stdout.write(`${HELP[command]}\n`);
    return 0;
  }
  const log = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));
  let body: Record<string, unknown>;
  try {
    const target = positionals[0];
    if (!target || positionals.length > 1) throw new Usage(`expected one ${command === 'search' ? 'QUERY' : 'URL'}`);
    if (command === 'crawl' && !o.output) throw new Usage('-o DIR is required');
    const limit = int(o.limit, 'limit');
    if (command === 'scrape') body = { url: target, formats: o.format?.length ? o.format : ['markdown'] };
    else if (command === 'map') body = { url: target, search: o.search, limit };
    else if (command === 'search') body = { query: target, limit };
    else body = { url: target, limit, includePaths: o['include-paths'], excludePaths: o['exclude-paths'], maxDiscoveryDepth: int(o['max-depth'], 'max-depth'), scrapeOptions: { formats: ['markdown'] } };
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    process.stderr.write(`trawl ${command}: ${e.message}\n\n${HELP[command]}\n`);
    return 2;
  }
  enterProductionMode();
  const { openApi } = await import('./in-process.ts');
  let opened;
  try {
    opened = await openApi(config, log, o.server ?? config.client.apiUrl, o['api-key'] ?? config.client.apiKey);
  } catch (e) {
    process.stderr.write(`trawl ${command}: cannot open Trawl: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    if (command === 'crawl') return await crawlToDir(opened.api, body, { dir: o.output!, progress: process.stderr });
    const res = await opened.api('POST', `/v2/${command}`, body);
    if (res.status !== 200) {
      process.stderr.write(`trawl ${command}: ${res.body?.error ?? `HTTP ${res.status}`} (HTTP ${res.status})\n`);
      return 1;
    }
    process.stdout.write(render(command, res.body, Boolean(o.json), body));
    return 0;
  } catch (e) {
    process.stderr.write(`trawl ${command}: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await opened.close();
  }
}

/** What a command prints on stdout. */
function render(command: string, answer: any, json: boolean, body: Record<string, unknown>): string {
  if (json) return `${JSON.stringify(command === 'scrape' ? answer.data : answer, null, 2)}\n`;
  if (command === 'scrape') {
    const doc = answer.data;
    const formats = body.formats as string[];
    if (formats.length === 1 && typeof doc[formats[0]!] === 'string') return `${doc[formats[0]!]}\n`;
    if (formats.length === 1 && Array.isArray(doc[formats[0]!])) return doc[formats[0]!].map((x: unknown) => `${typeof x === 'string' ? x : JSON.stringify(x)}\n`).join('');
    return `${JSON.stringify(doc, null, 2)}\n`;
  }
  if (command === 'map') return answer.links.map((l: any) => `${l.url ?? l}\n`).join('');
  return (answer.data?.web ?? []).map((r: any) => `${r.title ?? ''}\n  ${r.url}\n  ${r.description ?? ''}\n`).join('');
}
