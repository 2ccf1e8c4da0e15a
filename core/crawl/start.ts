/**
 * Starting crawls and batch scrapes (API side): builds the stored options, creates the job rows and
 * queues the first work. Shared by the v1 and v2 routes; no HTTP types here.
 */
import type { Services } from '../services.ts';
import type { Principal } from '../auth/authenticate.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { teamSettings } from '../auth/teams.ts';
import { newId } from '../ids.ts';
import { createJob } from '../store/crawls.ts';
import { kickJob } from '../webhooks/deliver.ts';
import type { WebhookSpec } from '../webhooks/spec.ts';
import { enqueueItems, enqueueKickoff } from './enqueue.ts';
import { effectiveConcurrency, type CrawlerOptions } from './options.ts';
import { webhookDeps } from './webhook-deps.ts';

async function teamConcurrency(services: Services, teamId: string): Promise<number> {
  const team = await teamSettings(services.db, teamId, services.config.accounts.authCacheMs).catch(() => null);
  return team?.concurrency ?? services.config.team.concurrency;
}

export interface StartCrawl {
  principal: Principal;
  crawler: CrawlerOptions;
  scrape: ScrapeOptions;
  webhook?: WebhookSpec;
  /** What the active list shows as `options`. */
  publicOptions: Record<string, unknown>;
  idempotencyKey?: string;
}

/** Creates a crawl and queues its kickoff. @returns the crawl id */
export async function startCrawl(services: Services, req: StartCrawl): Promise<string> {
  const id = newId();
  const concurrency = effectiveConcurrency(req.crawler.maxConcurrency, req.crawler.delay, await teamConcurrency(services, req.principal.teamId));
  await createJob(services.db, {
    id,
    teamId: req.principal.teamId,
    kind: 'crawl',
    url: req.crawler.sourceURL,
    publicOptions: req.publicOptions,
    options: { crawler: req.crawler, scrape: req.scrape, webhook: req.webhook, apiKeyId: req.principal.keyId, zeroDataRetention: req.scrape.zeroDataRetention },
    concurrency,
    delayMs: Math.round((req.crawler.delay ?? 0) * 1000),
    urlLimit: req.crawler.limit,
    zeroDataRetention: req.scrape.zeroDataRetention,
    webhook: req.webhook,
    idempotencyKey: req.idempotencyKey,
  });
  await enqueueKickoff(services, id);
  if (req.webhook) kickJob(webhookDeps(services), id);
  return id;
}

export interface StartBatch {
  principal: Principal;
  urls: { url: string; sourceUrl: string }[];
  scrape: ScrapeOptions;
  webhook?: WebhookSpec;
  maxConcurrency?: number;
  publicOptions: Record<string, unknown>;
  idempotencyKey?: string;
}

/** Creates a batch scrape and queues its first pages. @returns the batch id */
export async function startBatch(services: Services, req: StartBatch): Promise<string> {
  const id = newId();
  const concurrency = effectiveConcurrency(req.maxConcurrency, undefined, await teamConcurrency(services, req.principal.teamId));
  const items = await createJob(services.db, {
    id,
    teamId: req.principal.teamId,
    kind: 'batch_scrape',
    url: req.urls[0].sourceUrl,
    publicOptions: req.publicOptions,
    options: { scrape: req.scrape, webhook: req.webhook, apiKeyId: req.principal.keyId, zeroDataRetention: req.scrape.zeroDataRetention },
    concurrency,
    delayMs: 0,
    urlLimit: 2_000_000_000,
    zeroDataRetention: req.scrape.zeroDataRetention,
    webhook: req.webhook,
    idempotencyKey: req.idempotencyKey,
    urls: req.urls,
  });
  await enqueueItems(services, items);
  if (req.webhook) kickJob(webhookDeps(services), id);
  return id;
}
