/**
 * Turns found URLs (sitemap entries, page links) into a `Discovery` for the frontier: normalized,
 * judged against the crawl's scope (scope.ts), checked against robots.txt of their origin, and keyed
 * for dedupe. robots.txt is fetched once per crawl and origin by whichever worker needs it first and
 * stored in `crawl_robots`, so every process evaluates the same rules.
 */
import type { Database } from '../db/client.ts';
import type { Discovery } from '../store/crawl-urls.ts';
import { emptyDiscovery } from '../store/crawl-urls.ts';
import type { CrawlerOptions } from './options.ts';
import { keyOptions, scopeRules } from './options.ts';
import { fetchRobotsText, parseRobots, TRAWL_AGENT, type Robots } from './robots.ts';
import type { ResourceDeps } from './fetch-resource.ts';
import { judgeUrl, type ScopeRules, type Verdict } from './scope.ts';
import { fetchUrlOf, parseHttpUrl, urlKey, type KeyOptions } from './url-key.ts';
import { threatVerdict } from '../threat/check.ts';

export interface DiscoveryDeps extends ResourceDeps {
  db: Database;
}

const robotsCache = new Map<string, Promise<Robots>>();
const ROBOTS_CACHE_MAX = 500;

/**
 * robots.txt rules of `origin` for crawl `jobId` (fetched once per crawl and origin, shared through
 * the database).
 */
export function robotsFor(deps: DiscoveryDeps, jobId: string, origin: string, agent: string | undefined): Promise<Robots> {
  const cacheKey = `${jobId} ${origin} ${agent ?? ''}`;
  let p = robotsCache.get(cacheKey);
  if (!p) {
    p = (async () => {
      const stored = await deps.db.query<{ body: string }>('select body from crawl_robots where job_id = $1 and origin = $2', [jobId, origin]);
      let text = stored[0]?.body;
      if (text === undefined) {
        text = await fetchRobotsText(deps, origin);
        await deps.db.query('insert into crawl_robots (job_id, origin, body) values ($1, $2, $3) on conflict do nothing', [jobId, origin, text]);
      }
      return parseRobots(origin, text, agent ?? TRAWL_AGENT);
    })();
    p.catch(() => robotsCache.delete(cacheKey));
    if (robotsCache.size >= ROBOTS_CACHE_MAX) robotsCache.delete(robotsCache.keys().next().value!);
    robotsCache.set(cacheKey, p);
  }
  return p;
}

/** Per-crawl values derived once from its options. */
export interface CrawlContext {
  jobId: string;
  options: CrawlerOptions;
  rules: ScopeRules;
  keys: KeyOptions;
}

const contexts = new Map<string, CrawlContext>();

/** The crawl context of a job (memoized per process; options never change after creation). */
export function crawlContext(jobId: string, options: CrawlerOptions): CrawlContext {
  let c = contexts.get(jobId);
  if (!c) {
    c = { jobId, options, rules: scopeRules(options), keys: keyOptions(options) };
    if (contexts.size >= 1000) contexts.delete(contexts.keys().next().value!);
    contexts.set(jobId, c);
  }
  return c;
}

/** What one spelling of a found link gives in one crawl: its dedupe key, the URL fetched, the scope verdict. */
interface LinkFacts {
  key: string;
  href: string;
  origin: string;
  verdict: Verdict;
  /** robots.txt allows it (set once evaluated: a crawl's robots.txt is read once and never changes). */
  allowed?: boolean;
}

/**
 * Per crawl, the facts of each link spelling seen (null: not an http(s) URL). A site's pages link to
 * the same pages over and over (navigation, tables of contents): the 1,169 pg-docs pages give 18,374
 * links in about 4,900 spellings, and parsing, keying, judging and robots-checking each spelling once
 * takes classify from 0.07-0.11 to 0.03-0.07 CPU ms per page (bench/crawl/links.ts, 2026-11-27).
 * Bounded: LINK_MEMO_JOBS crawls, LINK_MEMO_MAX spellings each (beyond that links are worked out
 * each time). Everything cached is a pure function of the crawl's options and its stored robots.txt;
 * the threatProtection check (its lists are reloaded) runs every time.
 */
const linkMemos = new Map<string, Map<string, LinkFacts | null>>();
const LINK_MEMO_JOBS = 8;
const LINK_MEMO_MAX = 10_000;

function linkMemo(jobId: string): Map<string, LinkFacts | null> {
  let memo = linkMemos.get(jobId);
  if (!memo) {
    if (linkMemos.size >= LINK_MEMO_JOBS) linkMemos.delete(linkMemos.keys().next().value!);
    linkMemos.set(jobId, (memo = new Map()));
  }
  return memo;
}

/** The facts of one found link in a crawl, from the memo or worked out (and remembered while there is room). */
function linkFacts(memo: Map<string, LinkFacts | null>, ctx: CrawlContext, raw: string): LinkFacts | null {
  const hit = memo.get(raw);
  if (hit !== undefined) return hit;
  const parsed = parseHttpUrl(raw);
  let facts: LinkFacts | null = null;
  if (parsed) {
    const url = new URL(fetchUrlOf(parsed, ctx.keys));
    facts = { key: urlKey(url, ctx.keys), href: url.href, origin: url.origin, verdict: judgeUrl(url, ctx.rules) };
  }
  if (memo.size < LINK_MEMO_MAX) memo.set(raw, facts);
  return facts;
}

/**
 * Classifies found URLs.
 * @param found  absolute URLs (fragments allowed)
 * @param depth  depth the accepted URLs get
 */
export async function classify(deps: DiscoveryDeps, ctx: CrawlContext, found: string[], depth: number): Promise<Discovery> {
  const d = emptyDiscovery();
  const seen = new Set<string>();
  const memo = linkMemo(ctx.jobId);
  for (const raw of found) {
    const facts = linkFacts(memo, ctx, raw);
    if (!facts) continue;
    const { key, href, verdict } = facts;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!verdict.ok) {
      if (verdict.reason === 'external-homepage') {
        d.skipped.push({ key, url: href, code: 'EXTERNAL_LINK', error: `Skipped the external homepage ${href}: external links to a site's root are not followed.` });
      }
      continue;
    }
    const threat = threatVerdict(href, ctx.options.threatProtection);
    if (threat) {
      d.skipped.push({ key, url: href, code: threat.code, error: threat.message });
      continue;
    }
    if (!ctx.options.ignoreRobotsTxt) {
      if (facts.allowed === undefined) {
        const robots = await robotsFor(deps, ctx.jobId, facts.origin, ctx.options.robotsUserAgent);
        facts.allowed = robots.isAllowed(href);
      }
      if (!facts.allowed) {
        d.robots.push({ key, url: href });
        continue;
      }
    }
    d.accept.push({ key, url: href, sourceUrl: href, depth, external: verdict.external });
  }
  return d;
}

/**
 * Keys this process knows a crawl already has, with the smallest depth seen: links to them need no
 * database work. Only keys of committed inserts are remembered (`rememberKeys` after the commit), and
 * rows are never deleted while a crawl runs, so a remembered key always exists.
 */
const knownKeys = new Map<string, Map<string, number>>();
const KNOWN_JOBS_MAX = 8;
const KNOWN_KEYS_MAX = 50_000;

/** The discovery without accepted URLs this process knows exist at the same or a smaller depth. */
export function unknownOnly(jobId: string, d: Discovery): Discovery {
  const known = knownKeys.get(jobId);
  if (!known) return d;
  return { ...d, accept: d.accept.filter((c) => (known.get(c.key) ?? Infinity) > c.depth) };
}

/** Records the accepted keys of a committed discovery. */
export function rememberKeys(jobId: string, d: Discovery, depth: number): void {
  let known = knownKeys.get(jobId);
  if (!known) {
    if (knownKeys.size >= KNOWN_JOBS_MAX) knownKeys.delete(knownKeys.keys().next().value!);
    knownKeys.set(jobId, (known = new Map()));
  }
  if (known.size > KNOWN_KEYS_MAX) return;
  for (const c of d.accept) if ((known.get(c.key) ?? Infinity) > depth) known.set(c.key, depth);
}
