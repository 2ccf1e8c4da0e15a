/**
 * Trawl in this process for `trawl mcp` and the CLI commands: services on the data dir, the workers,
 * and the HTTP app answering through `handle` (no port is opened), or a remote server by URL. Either
 * way the result is an `ApiCaller` sending the given key, so every call passes the API's admission.
 */
import type { ResolvedConfig } from '../core/config.ts';
import type { Logger } from '../core/log.ts';
import { apiCaller, type ApiCaller } from '../core/mcp/api.ts';

export interface OpenedApi {
  api: ApiCaller;
  /** Closes the in-process services (no-op for a server). */
  close(): Promise<void>;
}

/**
 * Opens the API: `server` (a base URL) over HTTP, else Trawl in-process on `config.dataDir`.
 * @param key API key sent as Bearer (none with TRAWL_AUTH=off)
 */
export async function openApi(config: ResolvedConfig, log: Logger, server?: string, key?: string): Promise<OpenedApi> {
  const headers = new Headers(key ? { authorization: `Bearer ${key}` } : {});
  if (server) return { api: apiCaller((req) => fetch(req), server.replace(/\/+$/, ''), headers), close: async () => {} };
  const { openServices, defaultBaseUrl } = await import('../core/services.ts');
  const { startWorkers } = await import('../core/runtime.ts');
  const { closeLimits } = await import('../core/limits/index.ts');
  const { createApp } = await import('../core/http/app.ts');
  const services = await openServices(config, log);
  await startWorkers(services);
  const app = createApp(services);
  return {
    api: apiCaller((req) => app.handle(req), defaultBaseUrl(config), headers),
    async close() {
      await closeLimits(services);
      await services.close();
    },
  };
}
