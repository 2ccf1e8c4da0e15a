/**
 * Shared helpers for the HTML/markdown tests: fixture loading, a plugin context, a FormatInput built
 * the way the pipeline builds it (cleanedHtml through cleanHtml), and the full page -> markdown path.
 */
import { join } from 'node:path';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import type { BlobStore } from '../../core/blobs.ts';
import type { EngineResponse, FormatInput, ParsedDocument, PluginContext } from '../../core/plugin.ts';
import type { ScrapeOptions } from '../../core/http/models/scrape.ts';
import { testScrapeOptions } from '../helpers/scrape-options.ts';
import { createFormatInput } from '../../core/pipeline/scrape.ts';
import { cleanHtml, type CleanHtmlOptions } from '../../parsers/html/clean.ts';
import { htmlToMarkdown } from '../../formats/markdown/convert.ts';

export const PAGES = join(import.meta.dir, '../fixtures/pages');

export async function fixture(name: string): Promise<string> {
  return Bun.file(join(PAGES, name)).text();
}

/** Page HTML -> markdown the way the scrape pipeline does it (clean, then convert). */
export function pageToMarkdown(html: string, opts: Partial<CleanHtmlOptions> & { removeBase64Images?: boolean } = {}): string {
  const cleaned = cleanHtml(html, { url: opts.url ?? 'https://site.example/page', onlyMainContent: opts.onlyMainContent ?? true, ...opts });
  return htmlToMarkdown(cleaned, { removeBase64Images: opts.removeBase64Images ?? true });
}

export function context(): PluginContext {
  return {
    config: loadConfig({}),
    log: silentLogger,
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    blobs: {} as BlobStore,
  };
}

export function options(over: Partial<ScrapeOptions> = {}): ScrapeOptions {
  return testScrapeOptions({ maxAge: 0, storeInCache: false, ...over });
}

/** A FormatInput for an HTML page, built as the pipeline builds it (core/pipeline/scrape.ts). */
export function formatInput(html: string | undefined, url: string, opts: ScrapeOptions = options(), parsed: ParsedDocument = { html, metadata: {} }): FormatInput {
  const response: EngineResponse = {
    url,
    statusCode: 200,
    headers: { 'content-type': 'text/html' },
    contentType: 'text/html',
    body: new TextEncoder().encode(html ?? ''),
    text: html,
    engine: 'fetch',
  };
  return createFormatInput(response, { sourceURL: url, options: opts }, parsed);
}
