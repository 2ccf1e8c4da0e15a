/**
 * What every contract suite hands a plugin: a plugin context with a real config, a silent logger, a
 * 30 s deadline and an in-memory blob store (test/contracts/suites/memory-blobs.ts).
 */
import type { PluginContext } from '../../../core/plugin.ts';
import { loadConfig, type ResolvedConfig } from '../../../core/config.ts';
import { silentLogger } from '../../../core/log.ts';
import { memoryBlobStore } from './memory-blobs.ts';

/** A config for contract runs: loopback targets allowed (fixtures live on 127.0.0.1). */
export function contractConfig(env: Record<string, string> = {}): ResolvedConfig {
  return loadConfig({ TRAWL_DATA_DIR: '/tmp/trawl-contract', TRAWL_LOG_LEVEL: 'silent', TRAWL_ALLOW_PRIVATE_TARGETS: 'true', ...env });
}

/** A fresh plugin context; `timeoutMs` bounds the deadline and the signal. */
export function contractContext(timeoutMs = 30_000, config = contractConfig()): PluginContext {
  return {
    config,
    log: silentLogger,
    signal: AbortSignal.timeout(timeoutMs),
    deadline: Date.now() + timeoutMs,
    blobs: memoryBlobStore(),
  };
}
