/**
 * The MCP tools: firecrawl-mcp's names and arguments (firecrawl_scrape, firecrawl_map,
 * firecrawl_search, firecrawl_crawl, firecrawl_check_crawl_status, firecrawl_extract) run as Trawl API calls through an
 * `ApiCaller`. Arguments are turned into the API body as firecrawl-mcp does (format names plus
 * `jsonOptions`/`queryOptions`/`screenshotOptions` become format objects); an API error becomes a
 * tool result with `isError` and the API's message, never a protocol error.
 */
import type { ApiAnswer, ApiCaller } from './api.ts';
import { CRAWL_INPUT, CRAWL_STATUS_INPUT, EXTRACT_INPUT, MAP_INPUT, SCRAPE_INPUT, SEARCH_INPUT } from './schemas.ts';

/** A tool result in the MCP shape (`content` of text parts; `isError` for a failed call). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/** One tool: its name, description, JSON input schema and how it runs. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { title: string; readOnlyHint: boolean; openWorldHint: boolean; destructiveHint: false };
  run(args: Record<string, any>, api: ApiCaller, signal: AbortSignal): Promise<ToolResult>;
}

type Args = Record<string, any>;

const text = (value: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] });

/** An API error as a tool error naming the status and the API's message. */
function failed(answer: ApiAnswer): ToolResult {
  const message = answer.body?.error ?? `HTTP ${answer.status}`;
  return { content: [{ type: 'text', text: `Trawl API error ${answer.status}: ${message}` }], isError: true };
}

/**
 * The argument holding a format's options (firecrawl-mcp's buildFormatsArray): a name listed here
 * becomes a format object with them; `always` formats become objects even without options.
 */
const FORMAT_OPTIONS: Record<string, { arg: string; always: boolean }> = {
  json: { arg: 'jsonOptions', always: true },
  query: { arg: 'queryOptions', always: true },
  screenshot: { arg: 'screenshotOptions', always: false },
};

/** Scrape arguments → API scrape options (firecrawl-mcp's transformScrapeParams). */
export function scrapeBody(args: Args): Args {
  const { jsonOptions: _j, queryOptions: _q, screenshotOptions: _s, pdfOptions, ...out } = args;
  if (Array.isArray(out.formats) && out.formats.length) {
    out.formats = out.formats.map((f: unknown) => {
      const spec = typeof f === 'string' ? FORMAT_OPTIONS[f] : undefined;
      const options = spec ? args[spec.arg] : undefined;
      return spec && (spec.always || options) ? { type: f, ...options } : f;
    });
  }
  if (Array.isArray(out.parsers) && pdfOptions) out.parsers = out.parsers.map((p: unknown) => (p === 'pdf' ? { type: 'pdf', ...pdfOptions } : p));
  return dropEmpty(out);
}

/** Leaves out undefined, empty strings and empty arrays at the top level (firecrawl-mcp's removeEmptyTopLevel). */
function dropEmpty(args: Args): Args {
  const out: Args = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

/** Path and query of an absolute `next` URL (the API builds them on the caller's origin). */
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** Reads a crawl status with every page (follows `next`). */
async function crawlStatus(api: ApiCaller, id: string, signal: AbortSignal): Promise<ApiAnswer> {
  const first = await api('GET', `/v2/crawl/${encodeURIComponent(id)}`, undefined, signal);
  if (first.status !== 200) return first;
  const body = first.body;
  const data = [...(body.data ?? [])];
  for (let next = body.next; next && !signal.aborted; ) {
    const page = await api('GET', pathOf(next), undefined, signal);
    if (page.status !== 200) return page;
    data.push(...(page.body.data ?? []));
    next = page.body.next;
  }
  const { next: _next, ...rest } = body;
  return { status: 200, body: { ...rest, data } };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Polls `GET path` until its `status` is no longer one of `running` (or `timeoutS` seconds pass, or the
 * call is aborted) and returns the last answer. `pollIntervalS` defaults to 2 s.
 */
async function waitFor(api: ApiCaller, path: string, running: string[], pollIntervalS: unknown, timeoutS: unknown, signal: AbortSignal): Promise<ApiAnswer> {
  const intervalMs = Math.max(0.1, Number(pollIntervalS) || 2) * 1000;
  const until = typeof timeoutS === 'number' && timeoutS > 0 ? Date.now() + timeoutS * 1000 : Infinity;
  for (;;) {
    const res = await api('GET', path, undefined, signal);
    if (res.status !== 200 || !running.includes(res.body?.status) || Date.now() >= until || signal.aborted) return res;
    await sleep(Math.min(intervalMs, Math.max(0, until - Date.now())), signal);
  }
}

const readOnly = (title: string) => ({ title, readOnlyHint: true, openWorldHint: true, destructiveHint: false as const });

/** The tools, in firecrawl-mcp's order. */
export const MCP_TOOLS: McpTool[] = [
  {
    name: 'firecrawl_scrape',
    description: 'Scrape one URL and return its content: markdown by default, or HTML, links, a screenshot, or JSON matching a schema.',
    inputSchema: SCRAPE_INPUT,
    annotations: readOnly('Scrape a page'),
    async run(args, api, signal) {
      const { url, ...options } = args;
      const res = await api('POST', '/v2/scrape', { url, ...scrapeBody(options) }, signal);
      return res.status === 200 ? text(res.body.data) : failed(res);
    },
  },
  {
    name: 'firecrawl_map',
    description: "List a website's URLs (sitemap and links) without fetching each page's content.",
    inputSchema: MAP_INPUT,
    annotations: readOnly('Map a website'),
    async run(args, api, signal) {
      const res = await api('POST', '/v2/map', dropEmpty(args), signal);
      return res.status === 200 ? text(res.body) : failed(res);
    },
  },
  {
    name: 'firecrawl_search',
    description: 'Search the web and return ranked results (title, URL, description); scrapeOptions attach page content.',
    inputSchema: SEARCH_INPUT,
    annotations: readOnly('Search the web'),
    async run(args, api, signal) {
      const body = dropEmpty(args);
      if (body.scrapeOptions) body.scrapeOptions = scrapeBody(body.scrapeOptions);
      const res = await api('POST', '/v2/search', body, signal);
      return res.status === 200 ? text(res.body.data ?? res.body) : failed(res);
    },
  },
  {
    name: 'firecrawl_crawl',
    description: 'Crawl a website from a URL, wait until the crawl finishes (or `timeout` seconds pass) and return its status and pages.',
    inputSchema: CRAWL_INPUT,
    annotations: { title: 'Crawl a website', readOnlyHint: false, openWorldHint: true, destructiveHint: false },
    async run(args, api, signal) {
      const { pollInterval, timeout, webhook, webhookHeaders, ...rest } = args;
      const body = dropEmpty(rest);
      if (body.scrapeOptions) body.scrapeOptions = scrapeBody(body.scrapeOptions);
      if (webhook) body.webhook = webhookHeaders && Object.keys(webhookHeaders).length ? { url: webhook, headers: webhookHeaders } : webhook;
      const started = await api('POST', '/v2/crawl', body, signal);
      if (started.status !== 200) return failed(started);
      const id: string = started.body.id;
      const status = await waitFor(api, `/v2/crawl/${encodeURIComponent(id)}?limit=1`, ['scraping'], pollInterval, timeout, signal);
      if (status.status !== 200) return failed(status);
      const res = await crawlStatus(api, id, signal);
      return res.status === 200 ? text({ id, ...res.body }) : failed(res);
    },
  },
  {
    name: 'firecrawl_check_crawl_status',
    description: 'Read the status, progress and pages of a crawl by its id (does not start or change it).',
    inputSchema: CRAWL_STATUS_INPUT,
    annotations: { ...readOnly('Crawl status'), openWorldHint: false },
    async run(args, api, signal) {
      const res = await crawlStatus(api, String(args.id), signal);
      return res.status === 200 ? text(res.body) : failed(res);
    },
  },
  {
    name: 'firecrawl_extract',
    description: 'Extract structured data (a prompt and/or a JSON schema) from one or more pages, wait for the answer and return it.',
    inputSchema: EXTRACT_INPUT,
    annotations: readOnly('Extract structured data'),
    async run(args, api, signal) {
      const { pollInterval, timeout, ...rest } = args;
      const started = await api('POST', '/v2/extract', dropEmpty(rest), signal);
      if (started.status !== 200) return failed(started);
      const res = await waitFor(api, `/v2/extract/${encodeURIComponent(started.body.id)}`, ['processing'], pollInterval, timeout, signal);
      return res.status === 200 ? text(res.body) : failed(res);
    },
  },
];
