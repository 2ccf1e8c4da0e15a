/**
 * Logging. One pino root logger per process writing JSON lines to stdout; every request and job gets a
 * child (`log.child({ jobId, plugin, url })`) carried on its context. Library code logs through the
 * context it is given, never through `console`.
 */
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Creates the root logger.
 * @param level pino level name (`info`, `debug`, `silent` ...), from `ResolvedConfig.logLevel`.
 */
export function createLogger(level: string, base: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { pid: process.pid, ...base }, timestamp: pino.stdTimeFunctions.isoTime });
}

/** Log fields that can carry a target URL: censored in the logs of zero-data-retention work. */
const URL_PATHS = ['url', 'sourceURL', 'href', 'target', '*.url', '*.sourceURL', '*.href', 'err.url', 'req.url'];

/**
 * The logger of one scrape: a child with `bindings`; with `keepsNoData` (zero data retention or
 * lockdown, compat.md §2.2) every URL-carrying field is written `[redacted]` and `zeroDataRetention`
 * is bound instead of the URL.
 */
export function scrapeLogger(parent: Logger, bindings: Record<string, unknown>, keepsNoData: boolean): Logger {
  if (!keepsNoData) return parent.child(bindings);
  const { url: _url, sourceURL: _source, ...rest } = bindings;
  return parent.child({ ...rest, zeroDataRetention: true }, { redact: { paths: URL_PATHS, censor: '[redacted]' } });
}

/** A logger that drops everything (tests and plugin contract suites). */
export const silentLogger: Logger = pino({ level: 'silent' });
