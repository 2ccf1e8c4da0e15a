/**
 * Builds a Document from page HTML through the real pipeline step (`buildDocument`: html parser,
 * format order, declared fields, warnings, metadata), optionally with a language model in the plugin
 * context (a scripted `LanguageModel` from ./scripted-model.ts).
 */
import type { EngineResponse, LanguageModel } from '../../core/plugin.ts';
import { Registry } from '../../core/registry.ts';
import { resolveScrapeOptions } from '../../core/pipeline/scrape-options.ts';
import { buildDocument, formatPlugins, runContext, type Document } from '../../core/pipeline/scrape.ts';
import { contractConfig, contractContext } from '../contracts/suites/context.ts';

const registry = new Registry();

/** The document of `html` for `formats` (and other scrape options), with `model` when given. */
export async function buildWith(html: string, formats: unknown[], opts: { model?: LanguageModel; scrape?: Record<string, unknown>; url?: string } = {}): Promise<Document> {
  const options = resolveScrapeOptions({ ...(opts.scrape ?? {}), formats }, await formatPlugins(registry));
  const url = opts.url ?? 'http://127.0.0.1:9/page';
  const body = new TextEncoder().encode(html);
  const response: EngineResponse = { url, statusCode: 200, headers: { 'content-type': 'text/html' }, contentType: 'text/html', body, text: html, engine: 'fetch' };
  const req = { scrapeId: 'model-formats', url, sourceURL: url, options };
  const config = contractConfig();
  const ctx = contractContext(30_000, config);
  const run = runContext(req, { config, log: ctx.log, blobs: ctx.blobs });
  if (opts.model) run.ctx.model = opts.model;
  try {
    return await buildDocument(response, req, { registry }, run);
  } finally {
    run.end();
  }
}
