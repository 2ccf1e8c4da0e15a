/**
 * The threat lists in force in this process: every configured `threat-list` plugin, loaded once.
 * `loadThreatLists` is awaited by the async checkpoints that have the services (routes, scrape
 * accounting, crawl discovery); the synchronous checks (an engine's redirect hop) read what is
 * loaded. A list that fails to load is remembered as failed, so the policy's `failurePolicy` decides.
 */
import type { ResolvedConfig } from '../config.ts';
import type { ThreatListMatcher, ThreatListPlugin } from '../plugin.ts';

/** What loading needs of the registry (a structural type: the registry imports the engines that import this module). */
export interface ThreatListSource {
  all(kind: 'threat-list'): Promise<readonly ThreatListPlugin[]>;
}

export interface LoadedList {
  name: string;
  match?: ThreatListMatcher;
  /** Why the list could not be loaded. */
  error?: string;
}

let loaded: LoadedList[] = [];
let loading: Promise<void> | undefined;

/** Loads the configured threat lists once per process (later calls wait for the first). */
export function loadThreatLists(registry: ThreatListSource, config: ResolvedConfig): Promise<void> {
  loading ??= (async () => {
    const out: LoadedList[] = [];
    for (const plugin of await registry.all('threat-list')) {
      if (!plugin.configured(config)) continue;
      try {
        out.push({ name: plugin.name, match: await plugin.load(config) });
      } catch (err) {
        out.push({ name: plugin.name, error: err instanceof Error ? err.message : String(err) });
      }
    }
    loaded = out;
  })();
  return loading;
}

/** The lists loaded so far. */
export function threatLists(): readonly LoadedList[] {
  return loaded;
}

/** Forgets the loaded lists (tests that change the list file). */
export function resetThreatLists(): void {
  loaded = [];
  loading = undefined;
}
