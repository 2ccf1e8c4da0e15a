/**
 * Opening an interact session replays its scrape (compat.md §5): the scrape's URL and resolved
 * options (headers, mobile, location, blockAds, waitFor, interaction actions), the same first proxy
 * route, and its named profile, opened for the whole session (saving when `saveChanges`, so another
 * saving session of that profile gets 409 meanwhile). The live page comes from this process's browser
 * pool (plugins/engine/browser.ts `openBrowserSession`).
 */
import type { Services } from '../services.ts';
import type { Logger } from '../log.ts';
import type { EngineRequest, PluginContext } from '../plugin.ts';
import type { BrowserSession } from '../../plugins/engine/browser/session.ts';
import { TrawlError } from '../errors.ts';
import { profileOpener, type ProfileSession } from '../profiles/index.ts';
import { proxyAttempts } from '../pipeline/proxy.ts';
import type { ScrapeRecord } from './records.ts';
import { assertThreatAllowed } from '../threat/check.ts';
import { loadThreatLists } from '../threat/lists.ts';
import { resolveThreatPolicy } from '../threat/team.ts';

export interface Replayed {
  browser: BrowserSession;
  /** The session's profile; release it after `browser.close()` (which saves it). */
  profile?: ProfileSession;
}

/**
 * Opens a live page replaying a scrape.
 * @param lockMs how long the profile stays locked for this session, ms
 * @throws TrawlError BACKEND_UNAVAILABLE (no browser engine), CONFLICT (profile in use), THREAT_BLOCKED_*
 *         (403: threatProtection now refuses the scrape's URL), and what the scrape itself can fail
 *         with (timeout, site errors, action errors)
 */
export async function replayScrape(services: Services, record: ScrapeRecord, log: Logger, lockMs: number): Promise<Replayed> {
  // threatProtection (issue 17): the scrape's policy, or the team's policy of now when the scrape had
  // none; the start URL is checked again and the live page checks every navigation with it.
  const threatProtection = record.options!.threatProtection ?? (await resolveThreatPolicy(services, record.teamId, undefined));
  if (threatProtection && threatProtection.mode !== 'manual-only') await loadThreatLists(services.registry, services.config);
  assertThreatAllowed(record.url!, threatProtection);
  const options = { ...record.options!, threatProtection };
  if (!services.registry.has('engine', 'browser')) {
    throw new TrawlError('BACKEND_UNAVAILABLE', 'Interact needs the browser engine, which this instance does not have.');
  }
  await services.registry.get('engine', 'browser'); // loaded through the registry, so shutdown closes its pool
  const { openBrowserSession } = await import('../../plugins/engine/browser.ts');
  const profile = options.profile ? await profileOpener(services.db, record.teamId, log)(options.profile, `interact:${record.id}`, lockMs) : undefined;
  try {
    const route = (await proxyAttempts(options, services.registry, services.config))[0]?.route;
    const request: EngineRequest = {
      url: record.url!,
      headers: { ...(options.headers ?? {}) },
      options,
      timeoutMs: options.timeout,
      targets: services.config.targets,
      proxy: route,
      profile: profile?.handle,
    };
    const ctx: PluginContext = {
      config: services.config,
      log,
      blobs: services.blobs,
      signal: AbortSignal.timeout(options.timeout),
      deadline: Date.now() + options.timeout,
    };
    return { browser: await openBrowserSession(request, ctx), profile };
  } catch (e) {
    await profile?.release();
    throw e;
  }
}
