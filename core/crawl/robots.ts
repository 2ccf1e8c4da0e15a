/**
 * robots.txt for crawls and map (compat.md §7.2): fetched once per origin, evaluated with
 * robots-parser for Trawl's agent name or the request's `robotsUserAgent`. A missing (4xx) or
 * unreadable robots.txt allows everything. `Sitemap:` lines feed sitemap discovery.
 */
import robotsParser from 'robots-parser';
import { fetchResource, type ResourceDeps } from './fetch-resource.ts';

/** The agent name robots rules are evaluated for when the request names none. */
export const TRAWL_AGENT = 'Trawl';

/** Time allowed for fetching one robots.txt, ms. */
const ROBOTS_TIMEOUT_MS = 10_000;

export interface Robots {
  /** The robots.txt text (empty when none). */
  text: string;
  isAllowed(url: string): boolean;
  sitemaps(): string[];
}

/** Builds the evaluator for one origin from its robots.txt text. */
export function parseRobots(origin: string, text: string, agent: string = TRAWL_AGENT): Robots {
  const robots = robotsParser(`${origin}/robots.txt`, text);
  return {
    text,
    isAllowed: (url) => robots.isAllowed(url, agent) !== false,
    sitemaps: () => robots.getSitemaps(),
  };
}

/**
 * Fetches the robots.txt text of `origin` (`http://host:port`). Never throws: failures give ''.
 * A 200 response with a text body counts; anything else means "no rules".
 */
export async function fetchRobotsText(deps: ResourceDeps, origin: string, signal?: AbortSignal): Promise<string> {
  try {
    const res = await fetchResource(deps, `${origin}/robots.txt`, ROBOTS_TIMEOUT_MS, signal);
    if (res.status !== 200 || res.text === undefined) return '';
    if (/html/.test(res.contentType) && /<html/i.test(res.text.slice(0, 1000))) return ''; // soft 404 page
    return res.text.slice(0, 500_000);
  } catch (e) {
    deps.log.debug({ origin, err: (e as Error).message }, 'robots.txt not readable; allowing all');
    return '';
  }
}
