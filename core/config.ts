/**
 * Configuration, read once. The environment (and an optional JSON file named by `TRAWL_CONFIG`) is the
 * user config (`TrawlConfig`, every field a string as the environment gives it); `loadConfig` validates
 * it with TypeBox, converts and defaults it into a frozen `ResolvedConfig` that is passed down to every
 * part of Trawl. This is the only file that reads `process.env`.
 */
import { availableParallelism } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parseCidr, parseDnsServers, type TargetPolicy } from './net/target-policy.ts';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);
const Int = Type.String({ pattern: '^[0-9]+$' });
const Url = Type.String({ pattern: '^[a-zA-Z][a-zA-Z0-9+.-]*://.+' });

/** The user config: environment variable names and the shape of their values. */
/**
 * The most links one page gives: the `links` format, the links a crawl follows from a page and those
 * map reads from its start page; the first ones in document order are kept (issue 15 item 8: a page of
 * 1,000,000 links otherwise costs gigabytes). Not configurable.
 */
export const MAX_LINKS_PER_PAGE = 10_000;

export const TrawlConfigSchema = Type.Object({
  PORT: Type.Optional(Int),
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  DATABASE_URL: Type.Optional(Url),
  REDIS_URL: Type.Optional(Url),
  TRAWL_DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  TRAWL_PUBLIC_URL: Type.Optional(Url),
  TRAWL_AUTH: Type.Optional(Type.Union([Type.Literal('keys'), Type.Literal('off')])),
  /** `on`, `off`, or a token of 16+ characters that scrapers send as Bearer (issue 24: /metrics). */
  TRAWL_METRICS: Type.Optional(Type.Union([Type.Literal('on'), Type.Literal('off'), Type.String({ minLength: 16, pattern: '^\\S+$' })])),
  TRAWL_ALLOW_PRIVATE_TARGETS: Type.Optional(
    Type.Union([Bool, Type.String({ pattern: '^\\s*[0-9a-fA-F:.\\[\\]]+(/\\d{1,3})?\\s*(,\\s*[0-9a-fA-F:.\\[\\]]+(/\\d{1,3})?\\s*)*$' })]),
  ),
  TRAWL_DNS_SERVERS: Type.Optional(Type.String()),
  TRAWL_ADMIN_KEY: Type.Optional(Type.String({ minLength: 1 })),
  TRAWL_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  FIRECRAWL_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  TRAWL_API_URL: Type.Optional(Url),
  FIRECRAWL_API_URL: Type.Optional(Url),
  TRAWL_THREAT_LIST_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** Plugin files or folders loaded at start, comma-separated (issue 24: plugins without a rebuild; docs/plugins.md). */
  TRAWL_PLUGINS_DIR: Type.Optional(Type.String()),
  TRAWL_ZSCALER_LIST_FILE: Type.Optional(Type.String({ minLength: 1 })),
  CHROMIUM_PATH: Type.Optional(Type.String({ minLength: 1 })),
  TRAWL_LOG_LEVEL: Type.Optional(
    Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  ),
  TRAWL_WORKER_CONCURRENCY: Type.Optional(Int),
  TRAWL_CONTENT_THREADS: Type.Optional(Int),
  TRAWL_BROWSER_POOL_SIZE: Type.Optional(Int),
  TRAWL_MAX_FETCH_BYTES: Type.Optional(Int),
  TRAWL_MAX_BODY_BYTES: Type.Optional(Int),
  TRAWL_PROXY_BASIC: Type.Optional(Url),
  TRAWL_PROXY_ENHANCED: Type.Optional(Url),
  TRAWL_PROXY_COUNTRIES: Type.Optional(Type.String()),
  TRAWL_SEARCH_PROVIDERS: Type.Optional(Type.String()),
  TRAWL_SEARCH_PUBLIC_TEAMS: Type.Optional(Type.String()),
  SEARXNG_URL: Type.Optional(Url),
  BRAVE_API_KEY: Type.Optional(Type.String()),
  BRAVE_API_URL: Type.Optional(Url),
  SERPER_API_KEY: Type.Optional(Type.String()),
  SERPER_API_URL: Type.Optional(Url),
  GOOGLE_CSE_KEY: Type.Optional(Type.String()),
  GOOGLE_CSE_ID: Type.Optional(Type.String()),
  GOOGLE_CSE_URL: Type.Optional(Url),
  TRAWL_PAPER_INDEXES: Type.Optional(Type.String()),
  OPENAI_BASE_URL: Type.Optional(Url),
  OPENAI_API_KEY: Type.Optional(Type.String()),
  MODEL_NAME: Type.Optional(Type.String()),
  OLLAMA_BASE_URL: Type.Optional(Url),
  TRAWL_MODEL_SMALL: Type.Optional(Type.String({ minLength: 1 })),
  TRAWL_MODEL_CONTEXT_TOKENS: Type.Optional(Int),
  TRAWL_MODEL_STRUCTURED_OUTPUT: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('json_schema'), Type.Literal('json_object'), Type.Literal('prompt')])),
  TRAWL_MODEL_TIMEOUT_MS: Type.Optional(Int),
  TRAWL_MODEL_MAX_RETRIES: Type.Optional(Int),
  TRAWL_MODEL_RETRY_MAX_WAIT_MS: Type.Optional(Int),
  TRAWL_MODEL_CONCURRENCY: Type.Optional(Int),
  TRAWL_WEBHOOK_SECRET: Type.Optional(Type.String()),
  TRAWL_OCR_LANGUAGES: Type.Optional(Type.String()),
  TRAWL_MEDIA_MAX_BYTES: Type.Optional(Int),
  TRAWL_FFMPEG_PATH: Type.Optional(Type.String({ minLength: 1 })),
  TRAWL_FFMPEG_TIMEOUT_MS: Type.Optional(Int),
  TRAWL_BLOB_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  TRAWL_RESEARCH_SWITCH_DATE: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  TRAWL_TEAM_CONCURRENCY: Type.Optional(Int),
  TRAWL_TEAM_CREDITS: Type.Optional(Int),
  TRAWL_RATE_LIMIT_PER_MINUTE: Type.Optional(Int),
  TRAWL_KEYLESS_RATE_LIMIT_PER_MINUTE: Type.Optional(Int),
  TRAWL_KEY_RATE_LIMIT_PER_MINUTE: Type.Optional(Int),
  /** The rate limits' window, s (default 60: the `*_PER_MINUTE` limits count per minute); tests shorten it. */
  TRAWL_RATE_LIMIT_WINDOW_S: Type.Optional(Int),
  TRAWL_STATUS_RATE_LIMIT_PER_MINUTE: Type.Optional(Int),
  TRAWL_AUTH_CACHE_MS: Type.Optional(Int),
  TRAWL_REDIS_PREFIX: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' })),
  TRAWL_TRUST_PROXY: Type.Optional(Bool),
  TRAWL_FEEDBACK_DAILY_REFUND_CAP: Type.Optional(Int),
  TRAWL_INTERACT_MAX_SESSIONS: Type.Optional(Int),
  TRAWL_INTERACT_MAX_SESSIONS_PER_TEAM: Type.Optional(Int),
  TRAWL_INTERACT_MAX_SESSIONS_PER_IP: Type.Optional(Int),
  TRAWL_INTERACT_IDLE_MS: Type.Optional(Int),
  TRAWL_INTERACT_MAX_MS: Type.Optional(Int),
  TRAWL_SCHEDULER_LEASE_MS: Type.Optional(Int),
  /** BullMQ job lock and stalled-check interval, ms (a killed worker's jobs are taken over within about twice this). */
  TRAWL_QUEUE_LOCK_MS: Type.Optional(Int),
  TRAWL_SCHEDULER_TICK_MS: Type.Optional(Int),
  /** `<ISO instant>@<speed>`: the scheduler's clock runs `speed` times real time from that instant (tests, demos). */
  TRAWL_SCHEDULER_CLOCK: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z@\\d+(\\.\\d+)?$' })),
  /** Print start-up phase marks to stderr (core/startup-trace.ts; bench/startup). */
  TRAWL_STARTUP_TRACE: Type.Optional(Bool),
});

/** User config: what the environment (or config file) holds. */
export type TrawlConfig = Static<typeof TrawlConfigSchema>;

/** Resolved config: typed, defaulted, frozen. Units are in the names (ms, bytes). */
export interface ResolvedConfig {
  port: number;
  host: string;
  /** Base of absolute URLs (job `url`, `next`); no trailing slash. Undefined: derive per request. */
  publicUrl?: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Prefix of every Redis key Trawl writes (queue, rate limits, concurrency slots); deployments sharing a Redis use different ones. */
  redisPrefix: string;
  /** Absolute path of the data directory (embedded Postgres, blobs, browser profiles). */
  dataDir: string;
  auth: 'keys' | 'off';
  /**
   * Who may read `/metrics`: `open` (anyone), `off` (404) or `token` (`Authorization: Bearer <token>`).
   * Default when TRAWL_METRICS is unset: open when HOST is a loopback address, else off.
   */
  metrics: { access: 'open' | 'off' | 'token'; token?: string };
  /**
   * What the SSRF guard allows (core/net/target-policy.ts): `TRAWL_ALLOW_PRIVATE_TARGETS=true` turns it
   * off; a list of addresses/CIDR blocks keeps it on with these exceptions; `TRAWL_DNS_SERVERS` names
   * the resolvers it uses.
   */
  targets: TargetPolicy;
  /**
   * External plugins (core/external-plugins.ts, docs/plugins.md): absolute paths of plugin files
   * (`.ts`, `.js`, `.mjs`) or folders of them, from `TRAWL_PLUGINS_DIR` (comma-separated; a list in
   * the `TRAWL_CONFIG` file), relative ones resolved against the working directory. Default none.
   */
  pluginPaths: readonly string[];
  /** A file of blocked domains, one a line (`#` comments), for the `local-file` threat list (threatProtection). */
  threatListFile?: string;
  /** The hosts a Zscaler policy blocks (a domain or URL a line, or a URL category CSV export), for `threatProtection.mode: "zscaler"`. */
  zscalerListFile?: string;
  /** Chromium executable for the browser engine: `CHROMIUM_PATH`, else {@link defaultChromium}. */
  chromiumPath: string;
  logLevel: string;
  /**
   * Jobs one worker process runs at once, per queue. Default 20, the default team concurrency, so
   * the one worker of the embedded default can run a whole crawl window (bench/crawl: at 8 pages in
   * flight a crawl waits on round trips; above 20 the main thread is the limit).
   */
  workerConcurrency: number;
  /**
   * Worker threads that turn fetched web pages into documents (core/pipeline/content-threads.ts);
   * 0 does that work on the main thread. Default: the machine's cores less two (the main thread and
   * the embedded database's thread), at least 1 and at most 4. On 2 cores a content thread measured
   * no faster for a crawl and ~90 MB larger (bench/crawl), but without it one large page holds the
   * main thread, and with it every request and `/health`, for as long as it takes to parse
   * (bench/security/LARGE-PAGES.md: 48 s on a 30 MB page).
   */
  contentThreads: number;
  browserPoolSize: number;
  /** Admin key `trawl keys|teams ... --server <url>` sends (TRAWL_ADMIN_KEY): kept off the command line, where `ps` shows it. */
  adminKey?: string;
  /**
   * What `trawl mcp` (and the CLI) call as a client: `apiUrl` a Trawl server (TRAWL_API_URL, or
   * FIRECRAWL_API_URL as firecrawl-mcp's clients set it; unset: Trawl in-process on the data dir),
   * `apiKey` the key sent (TRAWL_API_KEY or FIRECRAWL_API_KEY).
   */
  client: { apiUrl?: string; apiKey?: string };
  /** Largest response body the fetch engine reads, in bytes. */
  maxFetchBytes: number;
  /** Largest request body the API accepts, in bytes (compat.md §1.1: 10 MB). */
  maxBodyBytes: number;
  proxies: { basic?: string; enhanced?: string; countries: Record<string, string> };
  search: {
    providers: string[];
    searxngUrl?: string;
    brave?: { apiKey: string; url: string };
    serper?: { apiKey: string; url: string };
    google?: { key: string; cx: string; url: string };
    /** External research paper indexes (compat.md §11.2 API), tried after the local `papers` table. */
    paperIndexes: { url: string; apiKey?: string }[];
    /**
     * Teams whose local-index pages every caller may search, keyless ones included (ids, or `local` /
     * `keyless` for the built-in teams); default none (core/search/visibility.ts).
     */
    publicTeams: string[];
  };
  /** The language model (plugin kind `llm`, core/llm); undefined when none is configured (the default). */
  llm?: ModelSettings;
  /** Legacy TRAWL_WEBHOOK_SECRET: the local team's webhook secret only (core/webhooks/team-secret.ts). */
  webhookSecret?: string;
  ocrLanguages: string[];
  /**
   * The audio and video formats (formats/audio.ts, video.ts): the largest media file fetched, bytes
   * (default 100 MB; also the largest MP3 ffmpeg may write); the ffmpeg binary (Debian's, default
   * `ffmpeg`) and how long one run may take, ms (default 120000).
   */
  media: { maxBytes: number; ffmpegPath: string; ffmpegTimeoutMs: number };
  /**
   * Key of the HMAC that signs expiring blob URLs (audio, video: core/blob-signing.ts). Default: random
   * per process, so set `TRAWL_BLOB_SECRET` when API and worker run as separate processes.
   */
  blobSecret: string;
  /** Day the research search category switches to the paper index (interface.md, Versioning 3). */
  researchSwitchDate: string;
  team: { concurrency: number; credits: number; rateLimitPerMinute: number; keylessRateLimitPerMinute: number };
  /** Accounts (core/auth, core/credits, core/limits; compat.md §18). */
  accounts: {
    /** Requests per minute per API key and endpoint group (the team bucket is `team.rateLimitPerMinute`). */
    keyRateLimitPerMinute: number;
    /** Requests per minute per team for status reads (GET/DELETE of jobs), a larger bucket. */
    statusRateLimitPerMinute: number;
    /** How long a key's team and restrictions are cached, ms (at most 60000: changes apply within a minute). */
    authCacheMs: number;
    /**
     * The window every rate limit counts in, s (TRAWL_RATE_LIMIT_WINDOW_S, default 60, at least 1): the
     * `...PerMinute` limits are requests per this window. Only tests that wait a window out change it.
     */
    rateLimitWindowS: number;
    /** Take the keyless caller's IP from `X-Forwarded-For` (only behind a trusted reverse proxy). */
    trustProxy: boolean;
    /** Search feedback refunds per team per UTC day (compat.md §11.3). */
    feedbackDailyRefundCap: number;
  };
  /** Interact sessions (compat.md §5; core/interact): live browser pages held by the API process. */
  /**
   * The scheduler (core/monitor/scheduler.ts): the leader lease (`leaseMs`; a killed leader is replaced
   * within it), how often the leader looks for due checks (`tickMs`) and an optional scaled clock
   * (`clock`, from TRAWL_SCHEDULER_CLOCK) for tests that cannot wait real minutes.
   */
  scheduler: { leaseMs: number; tickMs: number; clock?: { startMs: number; speed: number } };
  /**
   * The BullMQ queue (`REDIS_URL`): how long a worker's job lock lasts without renewal, which is also
   * how often workers look for stalled jobs (`lockMs`, default 30 000 ms, at least 1 000). A SIGKILLed
   * worker's jobs are handed to another worker within about twice this; the lock is renewed every
   * half of it, so a lower value trades failover time for more Redis traffic and a risk of a busy
   * worker's job being taken as stalled. Tests lower it so failover tests need not wait a minute.
   */
  queue: { lockMs: number };
  /** Start-up phase marks on stderr (TRAWL_STARTUP_TRACE, default off; core/startup-trace.ts). */
  startupTrace: boolean;
  interact: {
    /** Sessions one API process holds at once; more answer 429. */
    maxSessions: number;
    /**
     * Sessions one team holds at once on a process (the keyless callers together count as one team);
     * default half of `maxSessions` (at least 1), all of them with `TRAWL_AUTH=off`.
     */
    maxSessionsPerTeam: number;
    /** Sessions keyless callers from one IP address hold at once on a process; default 1. */
    maxSessionsPerIp: number;
    /** A session without calls this long ends, ms (default 300000). */
    idleMs: number;
    /** A session ends this long after it opened, ms (default 600000). */
    maxMs: number;
  };
}

/**
 * `TRAWL_ALLOW_PRIVATE_TARGETS` and `TRAWL_DNS_SERVERS` → the guard's policy.
 * @throws Error naming the variable when an address, block or server does not parse
 */
function resolveTargets(allow: string | undefined, dns: string | undefined): TargetPolicy {
  const flag = allow === undefined || /^(true|false|1|0)$/.test(allow);
  const exceptions = flag ? [] : allow!.split(',').map((s) => s.trim()).filter(Boolean);
  const badBlock = exceptions.find((e) => !parseCidr(e));
  if (badBlock) throw new ConfigError(`Invalid configuration:\n  TRAWL_ALLOW_PRIVATE_TARGETS: "${badBlock}" is not an address or CIDR block`);
  const dnsServers = dns ? parseDnsServers(dns) : [];
  if (!dnsServers) throw new ConfigError("Invalid configuration:\n  TRAWL_DNS_SERVERS: expected a comma-separated list of ip or ip:port");
  return Object.freeze({
    allowAll: flag ? bool(allow, false) : false,
    exceptions: Object.freeze(exceptions),
    dnsServers: Object.freeze(dnsServers),
  });
}

function bool(v: string | undefined, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  return v === 'true' || v === '1';
}

function int(v: string | undefined, fallback: number): number {
  return v === undefined ? fallback : Number.parseInt(v, 10);
}

/** `COUNTRY=url,COUNTRY=url` → `{ COUNTRY: url }` (proxies per location.country). */
function parseCountryProxies(v: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).toUpperCase()] = part.slice(eq + 1);
  }
  return out;
}

/**
 * `TRAWL_PAPER_INDEXES`: comma-separated base URLs of external paper indexes speaking the
 * `/v2/search/research` API (`<base>/papers?query=&k=`); a user part (`https://KEY@host/...`) is sent
 * as the Bearer key and removed from the URL.
 */
function parsePaperIndexes(v: string | undefined): { url: string; apiKey?: string }[] {
  const out: { url: string; apiKey?: string }[] = [];
  for (const part of (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    let u: URL;
    try {
      u = new URL(part);
    } catch {
      throw new ConfigError(`Invalid configuration:\n  TRAWL_PAPER_INDEXES: "${part}" is not a URL`);
    }
    const apiKey = decodeURIComponent(u.password || u.username) || undefined;
    u.username = '';
    u.password = '';
    out.push({ url: u.href.replace(/\/+$/, ''), apiKey });
  }
  return out;
}

/**
 * The model settings (README "Models"). Configured by `OPENAI_BASE_URL` (any OpenAI-compatible
 * server; `OPENAI_API_KEY` alone means OpenAI itself) or `OLLAMA_BASE_URL` (Ollama's `/v1` is
 * appended; `MODEL_NAME` required), as the reference self-host names them.
 */
export interface ModelSettings {
  /** Chat-completions base URL, ending before `/chat/completions` (e.g. `http://127.0.0.1:11434/v1`). */
  baseUrl: string;
  /** Bearer key; empty for servers without one. */
  apiKey: string;
  /** `MODEL_NAME` (default `gpt-4o-mini`). */
  model: string;
  /** `TRAWL_MODEL_SMALL`: model for cheap passes (default: `model`). */
  smallModel: string;
  /** `TRAWL_MODEL_CONTEXT_TOKENS`: the model's context window, tokens (default 8192). */
  contextTokens: number;
  /**
   * `TRAWL_MODEL_STRUCTURED_OUTPUT`: how JSON answers are asked for. `auto` (default) sends
   * `response_format: json_schema` and on a 400 falls back to `json_object`, then to the schema in the
   * prompt only, remembering per process what the server took; the others fix one way.
   */
  structuredOutput: 'auto' | 'json_schema' | 'json_object' | 'prompt';
  /** `TRAWL_MODEL_TIMEOUT_MS`: time one call may take, ms (default 60000). */
  timeoutMs: number;
  /** `TRAWL_MODEL_MAX_RETRIES`: retries of a call answered 429/5xx or unreachable (default 2). */
  maxRetries: number;
  /** `TRAWL_MODEL_RETRY_MAX_WAIT_MS`: the longest wait before a retry, ms, `Retry-After` included (default 30000). */
  retryMaxWaitMs: number;
  /** `TRAWL_MODEL_CONCURRENCY`: model calls in flight per process (default 4). */
  concurrency: number;
}

function resolveModel(c: TrawlConfig): ModelSettings | undefined {
  let baseUrl = c.OPENAI_BASE_URL;
  if (!baseUrl && c.OLLAMA_BASE_URL) {
    if (!c.MODEL_NAME) throw new ConfigError('Invalid configuration:\n  OLLAMA_BASE_URL: set MODEL_NAME to the Ollama model to use (e.g. llama3.1:8b)');
    baseUrl = `${c.OLLAMA_BASE_URL.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`;
  }
  if (!baseUrl && c.OPENAI_API_KEY) baseUrl = 'https://api.openai.com/v1';
  if (!baseUrl) return undefined;
  const model = c.MODEL_NAME ?? 'gpt-4o-mini';
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: c.OPENAI_API_KEY ?? '',
    model,
    smallModel: c.TRAWL_MODEL_SMALL ?? model,
    contextTokens: Math.max(1024, int(c.TRAWL_MODEL_CONTEXT_TOKENS, 8192)),
    structuredOutput: c.TRAWL_MODEL_STRUCTURED_OUTPUT ?? 'auto',
    timeoutMs: Math.max(1000, int(c.TRAWL_MODEL_TIMEOUT_MS, 60_000)),
    maxRetries: Math.min(10, int(c.TRAWL_MODEL_MAX_RETRIES, 2)),
    retryMaxWaitMs: int(c.TRAWL_MODEL_RETRY_MAX_WAIT_MS, 30_000),
    concurrency: Math.max(1, int(c.TRAWL_MODEL_CONCURRENCY, 4)),
  };
}

/** Raised at startup when the configuration is invalid; the message names each bad variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Validates and resolves configuration.
 *
 * @param env   the environment (default `process.env`); only keys of `TrawlConfigSchema` are read.
 *              A `TRAWL_CONFIG` entry names a JSON file whose keys fill in what `env` lacks.
 * @param cwd   base for relative paths such as `TRAWL_DATA_DIR` (default `process.cwd()`).
 * @throws ConfigError naming every invalid variable and what it expects.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): ResolvedConfig {
  const merged: Record<string, string> = {};
  const file = env.TRAWL_CONFIG;
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(resolve(cwd, file), 'utf8'));
    } catch (e) {
      throw new ConfigError(`TRAWL_CONFIG: cannot read ${file}: ${(e as Error).message}`);
    }
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if (v !== null && v !== undefined) merged[k] = String(v);
    }
  }
  for (const key of Object.keys(TrawlConfigSchema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') merged[key] = v;
  }
  const user: Record<string, string> = {};
  for (const key of Object.keys(TrawlConfigSchema.properties)) if (merged[key] !== undefined) user[key] = merged[key];

  const errors = [...Value.Errors(TrawlConfigSchema, user)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.path.slice(1) || '(root)'}=${JSON.stringify(e.value)}: ${e.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = user as TrawlConfig;
  const search: ResolvedConfig['search'] = {
    providers: (c.TRAWL_SEARCH_PROVIDERS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    searxngUrl: c.SEARXNG_URL,
    brave: c.BRAVE_API_KEY
      ? { apiKey: c.BRAVE_API_KEY, url: c.BRAVE_API_URL ?? 'https://api.search.brave.com/res/v1' }
      : undefined,
    serper: c.SERPER_API_KEY ? { apiKey: c.SERPER_API_KEY, url: c.SERPER_API_URL ?? 'https://google.serper.dev' } : undefined,
    google:
      c.GOOGLE_CSE_KEY && c.GOOGLE_CSE_ID
        ? { key: c.GOOGLE_CSE_KEY, cx: c.GOOGLE_CSE_ID, url: c.GOOGLE_CSE_URL ?? 'https://www.googleapis.com/customsearch/v1' }
        : undefined,
    paperIndexes: parsePaperIndexes(c.TRAWL_PAPER_INDEXES),
    publicTeams: (c.TRAWL_SEARCH_PUBLIC_TEAMS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  };
  if (search.providers.length === 0) {
    if (search.searxngUrl) search.providers.push('searxng');
    if (search.brave) search.providers.push('brave');
    if (search.serper) search.providers.push('serper');
    if (search.google) search.providers.push('google');
    search.providers.push('local');
  }
  const interactMax = Math.max(1, int(c.TRAWL_INTERACT_MAX_SESSIONS, 4));
  const resolved: ResolvedConfig = {
    port: int(c.PORT, 3002),
    host: c.HOST ?? '0.0.0.0',
    publicUrl: c.TRAWL_PUBLIC_URL?.replace(/\/+$/, ''),
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    redisPrefix: c.TRAWL_REDIS_PREFIX ?? 'trawl',
    dataDir: resolve(cwd, c.TRAWL_DATA_DIR ?? './data'),
    auth: c.TRAWL_AUTH ?? 'keys',
    metrics: resolveMetrics(c.TRAWL_METRICS, c.HOST ?? '0.0.0.0'),
    targets: resolveTargets(c.TRAWL_ALLOW_PRIVATE_TARGETS, c.TRAWL_DNS_SERVERS),
    pluginPaths: (c.TRAWL_PLUGINS_DIR ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((p) => resolve(cwd, p)),
    threatListFile: c.TRAWL_THREAT_LIST_FILE ? resolve(cwd, c.TRAWL_THREAT_LIST_FILE) : undefined,
    zscalerListFile: c.TRAWL_ZSCALER_LIST_FILE ? resolve(cwd, c.TRAWL_ZSCALER_LIST_FILE) : undefined,
    chromiumPath: c.CHROMIUM_PATH ?? defaultChromium(),
    logLevel: c.TRAWL_LOG_LEVEL ?? 'info',
    workerConcurrency: Math.max(1, int(c.TRAWL_WORKER_CONCURRENCY, 20)),
    contentThreads: Math.max(0, Math.min(16, int(c.TRAWL_CONTENT_THREADS, Math.max(1, Math.min(4, availableParallelism() - 2))))),
    browserPoolSize: Math.max(1, int(c.TRAWL_BROWSER_POOL_SIZE, 2)),
    adminKey: c.TRAWL_ADMIN_KEY,
    client: { apiUrl: (c.TRAWL_API_URL ?? c.FIRECRAWL_API_URL)?.replace(/\/+$/, ''), apiKey: c.TRAWL_API_KEY ?? c.FIRECRAWL_API_KEY },
    maxFetchBytes: int(c.TRAWL_MAX_FETCH_BYTES, 50 * 1024 * 1024),
    maxBodyBytes: int(c.TRAWL_MAX_BODY_BYTES, 10 * 1024 * 1024),
    proxies: {
      basic: c.TRAWL_PROXY_BASIC,
      enhanced: c.TRAWL_PROXY_ENHANCED,
      countries: parseCountryProxies(c.TRAWL_PROXY_COUNTRIES),
    },
    search,
    llm: resolveModel(c),
    webhookSecret: c.TRAWL_WEBHOOK_SECRET,
    ocrLanguages: (c.TRAWL_OCR_LANGUAGES ?? 'eng').split(',').map((s) => s.trim()).filter(Boolean),
    media: {
      maxBytes: Math.max(1, int(c.TRAWL_MEDIA_MAX_BYTES, 100 * 1024 * 1024)),
      ffmpegPath: c.TRAWL_FFMPEG_PATH ?? 'ffmpeg',
      ffmpegTimeoutMs: Math.max(100, int(c.TRAWL_FFMPEG_TIMEOUT_MS, 120_000)),
    },
    blobSecret: c.TRAWL_BLOB_SECRET ?? randomBytes(32).toString('hex'),
    researchSwitchDate: c.TRAWL_RESEARCH_SWITCH_DATE ?? '2026-11-16',
    team: {
      concurrency: Math.max(1, int(c.TRAWL_TEAM_CONCURRENCY, 20)),
      credits: int(c.TRAWL_TEAM_CREDITS, 100_000_000),
      rateLimitPerMinute: Math.max(1, int(c.TRAWL_RATE_LIMIT_PER_MINUTE, 100_000)),
      keylessRateLimitPerMinute: Math.max(1, int(c.TRAWL_KEYLESS_RATE_LIMIT_PER_MINUTE, 1_000)),
    },
    accounts: {
      keyRateLimitPerMinute: Math.max(1, int(c.TRAWL_KEY_RATE_LIMIT_PER_MINUTE, int(c.TRAWL_RATE_LIMIT_PER_MINUTE, 100_000))),
      statusRateLimitPerMinute: Math.max(1, int(c.TRAWL_STATUS_RATE_LIMIT_PER_MINUTE, 10 * int(c.TRAWL_RATE_LIMIT_PER_MINUTE, 100_000))),
      authCacheMs: Math.min(60_000, int(c.TRAWL_AUTH_CACHE_MS, 30_000)),
      rateLimitWindowS: Math.max(1, int(c.TRAWL_RATE_LIMIT_WINDOW_S, 60)),
      trustProxy: bool(c.TRAWL_TRUST_PROXY, false),
      feedbackDailyRefundCap: int(c.TRAWL_FEEDBACK_DAILY_REFUND_CAP, 100),
    },
    queue: { lockMs: Math.max(1_000, int(c.TRAWL_QUEUE_LOCK_MS, 30_000)) },
    startupTrace: bool(c.TRAWL_STARTUP_TRACE, false),
    scheduler: {
      leaseMs: Math.max(1_000, int(c.TRAWL_SCHEDULER_LEASE_MS, 15_000)),
      tickMs: Math.max(100, int(c.TRAWL_SCHEDULER_TICK_MS, 5_000)),
      clock: c.TRAWL_SCHEDULER_CLOCK
        ? { startMs: Date.parse(c.TRAWL_SCHEDULER_CLOCK.split('@')[0]), speed: Number(c.TRAWL_SCHEDULER_CLOCK.split('@')[1]) }
        : undefined,
    },
    interact: {
      maxSessions: interactMax,
      // One team (TRAWL_AUTH=off) may use every session; with keys, half so no team locks out the others.
      maxSessionsPerTeam: Math.max(1, int(c.TRAWL_INTERACT_MAX_SESSIONS_PER_TEAM, c.TRAWL_AUTH === 'off' ? interactMax : Math.ceil(interactMax / 2))),
      maxSessionsPerIp: Math.max(1, int(c.TRAWL_INTERACT_MAX_SESSIONS_PER_IP, 1)),
      idleMs: Math.max(1_000, int(c.TRAWL_INTERACT_IDLE_MS, 300_000)),
      maxMs: Math.max(1_000, int(c.TRAWL_INTERACT_MAX_MS, 600_000)),
    },
  };
  return deepFreeze(resolved);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** TRAWL_METRICS → who may read /metrics (unset: open on a loopback HOST only). */
function resolveMetrics(value: string | undefined, host: string): ResolvedConfig['metrics'] {
  if (value === 'on') return { access: 'open' };
  if (value === 'off') return { access: 'off' };
  if (value) return { access: 'token', token: value };
  return { access: /^(127\.|::1$|\[::1\]$|localhost$)/.test(host) ? 'open' : 'off' };
}

/** Debian's `chromium-headless-shell` binary (package of the same name). */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';
/** Debian's full `chromium` (package of the same name). */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The Chromium Trawl drives when `CHROMIUM_PATH` is not set: Debian's headless shell when it is
 * installed, else the full browser. The shell is the same engine (same Blink and V8, same version from
 * the same source package) without the desktop browser's layers (profiles, extensions, the UI's
 * services): in bench/browser it used about half the CPU per page of the full browser in headless mode.
 * @param exists file check (tests pass their own)
 * @returns an absolute path
 */
export function defaultChromium(exists: (path: string) => boolean = existsSync): string {
  return exists(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_CHROMIUM_PATH;
}

/** Environment for child processes Trawl starts itself (Chromium): the process env, read here only. */
export function childProcessEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Puts the HTTP framework in production mode unless `NODE_ENV` is set already (e.g. `development`).
 * Elysia reads `NODE_ENV` once, when it is first imported; outside production it builds every
 * validation error with a pretty-printed copy of the whole request body (issue 15). Call before
 * core/runtime.ts is imported (bin/trawl.ts does, for the server modes).
 */
export function enterProductionMode(): void {
  process.env.NODE_ENV ??= 'production';
}
