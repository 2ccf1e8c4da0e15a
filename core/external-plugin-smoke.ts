/**
 * The behaviour half of an external plugin's checks at startup (core/external-plugins.ts), the
 * runtime form of what the contract suites ask of every built-in plugin (test/contracts/plugins.test.ts,
 * suites/parser.ts): a format run through the real document build on a small page gives a plain-JSON
 * document holding one of its fields; a parser given garbage bytes answers a document with metadata or
 * a TrawlError naming itself. Formats that need an engine feature (a browser) or options are checked
 * by their declarations only.
 */
import type { ResolvedConfig } from './config.ts';
import { silentLogger } from './log.ts';
import type { AnyPlugin, EngineResponse, FormatPlugin, ParserPlugin, PluginContext } from './plugin.ts';
import type { Registry } from './registry.ts';
import type { BlobStore } from './blobs.ts';
import { TrawlError } from './errors.ts';
import { buildDocument, formatPlugins, runContext } from './pipeline/scrape.ts';
import { resolveScrapeOptions } from './pipeline/scrape-options.ts';

/** Time one check may take, ms. */
const CHECK_MS = 15_000;

const PAGE = '<html><head><title>Check</title></head><body><main><h1>Plugin check</h1><p>A short paragraph with <a href="/next">a link</a>.</p></main></body></html>';

/** A blob store that stores nothing (checks never keep outputs). */
const noBlobs: BlobStore = { put: async () => 'check', get: async () => undefined, url: (key) => `http://127.0.0.1/v2/blobs/${key}` } as BlobStore;

/**
 * What went wrong running the plugin; `[]` when it behaved (or its kind has no behaviour check).
 * @param registry the registry the plugin will be part of (formats it `needs` run first)
 */
export async function smokeProblems(plugin: AnyPlugin, registry: Registry, config: ResolvedConfig): Promise<string[]> {
  try {
    if (plugin.kind === 'format') return await within(formatRun(plugin, registry, config));
    if (plugin.kind === 'parser') return await within(parserRun(plugin, config));
  } catch (e) {
    return [(e as Error).message];
  }
  return [];
}

function within(p: Promise<string[]>): Promise<string[]> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([`did not answer within ${CHECK_MS} ms`]), CHECK_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

async function formatRun(plugin: FormatPlugin<any>, registry: Registry, config: ResolvedConfig): Promise<string[]> {
  if (plugin.requires?.length || plugin.stringForm === false) return [];
  const plugins = await formatPlugins(registry);
  let options;
  try {
    options = resolveScrapeOptions({ formats: [plugin.name] }, plugins);
  } catch (e) {
    if (e instanceof TrawlError && e.status === 400) return []; // needs options: declarations only
    throw e;
  }
  const url = 'http://127.0.0.1:9/check';
  const response: EngineResponse = { url, statusCode: 200, headers: { 'content-type': 'text/html' }, contentType: 'text/html', body: new TextEncoder().encode(PAGE), text: PAGE, engine: 'fetch' };
  const req = { scrapeId: 'plugin-check', url, sourceURL: url, options };
  const run = runContext(req, { config, log: silentLogger, blobs: noBlobs });
  try {
    let doc: Record<string, unknown>;
    try {
      doc = (await buildDocument(response, req, { registry }, run)) as Record<string, unknown>;
    } catch (e) {
      return [`produce failed on a small HTML page: ${(e as Error).message}`];
    }
    const fields = plugin.fields ?? [plugin.name];
    if (!fields.some((f) => f in doc)) return [`produce on a small HTML page returned none of its fields (${fields.join(', ')})`];
    if (JSON.stringify(JSON.parse(JSON.stringify(doc))) !== JSON.stringify(doc)) return ['produce returned values that are not plain JSON'];
    return [];
  } finally {
    run.end();
  }
}

async function parserRun(plugin: ParserPlugin, config: ResolvedConfig): Promise<string[]> {
  const garbage = new Uint8Array(256).map((_, i) => (i * 73 + 11) % 256);
  const ctx: PluginContext = { config, log: silentLogger, signal: AbortSignal.timeout(CHECK_MS), deadline: Date.now() + CHECK_MS, blobs: noBlobs };
  try {
    const doc = await plugin.parse({ bytes: garbage, contentType: plugin.accepts.mime[0] ?? 'application/octet-stream', url: 'http://127.0.0.1:9/check' }, { type: plugin.name }, ctx);
    if (!doc || typeof doc.metadata !== 'object' || doc.metadata === null) return ['parse on garbage bytes returned no metadata object'];
  } catch (e) {
    if (!(e instanceof TrawlError)) return [`parse threw a plain ${(e as Error)?.name ?? 'value'} on garbage bytes; throw a TrawlError (from trawl/plugin) whose message starts with [${plugin.name}]`];
    if (!e.message.includes(`[${plugin.name}]`)) return [`parse's error on garbage bytes does not name the plugin: "${e.message}" (start it with [${plugin.name}])`];
  }
  return [];
}
