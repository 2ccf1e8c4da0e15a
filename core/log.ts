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

/** A logger that drops everything (tests and plugin contract suites). */
export const silentLogger: Logger = pino({ level: 'silent' });
