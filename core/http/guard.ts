/**
 * Admission of API requests: one call per route that authenticates the caller and checks what the
 * request may do before any work starts (interface.md "Authentication", "Errors"; compat.md §18).
 * Order: 401 (who), 403 (key restrictions: endpoint group, formats, actions), 429 (rate limits),
 * 400 (zero data retention not enabled), 402 (credits). Routes call `admit` with the endpoint group
 * and what the request asks for; it returns the caller or throws the TrawlError.
 */
import type { Services } from '../services.ts';
import { authenticate, bearerKey, type Principal } from '../auth/authenticate.ts';
import { teamSettings } from '../auth/teams.ts';
import { teamBalance } from '../credits/ledger.ts';
import { limitsFor, type Bucket } from '../limits/index.ts';
import { TrawlError } from '../errors.ts';
import type { Action, FormatSpec } from './models/scrape.ts';
import { clientIp } from './client-ip.ts';
import { ALWAYS_ALLOWED_GROUPS as ALWAYS_ALLOWED, type EndpointGroup } from '../auth/groups.ts';

export type { EndpointGroup } from '../auth/groups.ts';
export { RESTRICTABLE_GROUPS } from '../auth/groups.ts';

/** Actions that return content: always refused on a format-restricted key (interface.md Authentication 4). */
const CONTENT_ACTIONS = new Set(['scrape', 'executeJavascript', 'pdf']);

export interface AdmitSpec {
  group: EndpointGroup;
  /** Whether the endpoint accepts calls without a key (scrape, search, interact, parse). */
  keyless?: boolean;
  /** Formats the request asks for (scrape, batch, crawl/search scrapeOptions), defaults included. */
  formats?: (FormatSpec | string)[];
  actions?: Action[];
  /**
   * Credits that must be available before the request starts (crawl: limit; batch: urls.length).
   * Default: 1 for requests that start work, 0 for status reads (GET/DELETE) and account endpoints.
   */
  credits?: number;
  /**
   * The request asks for zero data retention (scrape/crawl `zeroDataRetention`, search
   * `enterprise: ["zdr"]`): the team needs `zdr_enabled` (always allowed with `TRAWL_AUTH=off`).
   */
  zeroDataRetention?: boolean;
  /** A status read (counted in the larger status bucket). Default: GET, HEAD and DELETE requests. */
  status?: boolean;
}

/** Request facts admission needs besides the spec (what `admit` reads off the Request). */
export interface AdmitContext {
  key?: string;
  ip: string;
  method: string;
}

const list = (xs: readonly string[]) => xs.join(', ');

/**
 * Checks a principal's key restrictions against a request (no I/O).
 * @throws TrawlError FORBIDDEN (403) naming the allowed endpoint groups, or the allowed and rejected formats
 */
export function checkRestrictions(p: Principal, spec: Pick<AdmitSpec, 'group' | 'formats' | 'actions'>): void {
  if (p.allowedEndpoints.length > 0 && !ALWAYS_ALLOWED.has(spec.group) && !p.allowedEndpoints.includes(spec.group)) {
    throw new TrawlError(
      'FORBIDDEN',
      `This API key is not allowed to call the ${spec.group} endpoints. Endpoint groups allowed for this key: ${list(p.allowedEndpoints)}.`,
    );
  }
  if (p.allowedFormats.length === 0) return;
  const requested = (spec.formats ?? []).map((f) => (typeof f === 'string' ? f : f.type));
  const rejected = [...new Set(requested.filter((f) => !p.allowedFormats.includes(f)))];
  if (rejected.length > 0) {
    throw new TrawlError(
      'FORBIDDEN',
      `This API key may not request the format${rejected.length > 1 ? 's' : ''} ${list(rejected)}. Formats allowed for this key: ${list(p.allowedFormats)}.`,
    );
  }
  for (const action of spec.actions ?? []) {
    if (CONTENT_ACTIONS.has(action.type) || (action.type === 'screenshot' && !p.allowedFormats.includes('screenshot'))) {
      throw new TrawlError(
        'FORBIDDEN',
        `This API key is restricted to the formats ${list(p.allowedFormats)}, so the ${action.type} action is not allowed` +
          (action.type === 'screenshot' ? ' (it needs the screenshot format).' : ' (it returns page content).'),
      );
    }
  }
}

function buckets(services: Services, p: Principal, spec: AdmitSpec, ctx: AdmitContext): Bucket[] {
  const { team, accounts } = services.config;
  const status = spec.status ?? ['GET', 'HEAD', 'DELETE'].includes(ctx.method.toUpperCase());
  const group = status ? `${spec.group}:status` : spec.group;
  if (p.keyless) {
    return [{ family: 'ip', key: `${ctx.ip}:${group}`, perMinute: team.keylessRateLimitPerMinute, label: `keyless calls to the ${spec.group} endpoints from one address` }];
  }
  const out: Bucket[] = [];
  if (p.keyId) {
    const perMinute = status ? accounts.statusRateLimitPerMinute : accounts.keyRateLimitPerMinute;
    out.push({ family: status ? 'key-status' : 'key', key: `${p.keyId}:${group}`, perMinute, label: `${status ? 'status reads of ' : ''}the ${spec.group} endpoints with this API key` });
  }
  const perMinute = status ? accounts.statusRateLimitPerMinute : team.rateLimitPerMinute;
  out.push({ family: status ? 'team-status' : 'team', key: `${p.teamId}:${group}`, perMinute, label: `${status ? 'status reads of ' : ''}the ${spec.group} endpoints of this team` });
  return out;
}

/** A balance read may be reused this long, ms, while it exceeds the need by `BALANCE_MARGIN`. */
const BALANCE_REUSE_MS = 2_000;
/** Credits above the need that make a recent balance read good enough (no query). */
const BALANCE_MARGIN = 1_000;
const balances = new WeakMap<Services, Map<string, { balance: number; at: number }>>();

/**
 * The team's balance for admission. Far from zero a read of the last 2 s is reused (thousands of
 * credits cannot be spent in that time by scrapes that are charged 1 to 10 credits each); near zero,
 * or when the need is large, the balance is read fresh.
 */
async function balanceFor(services: Services, teamId: string, needed: number): Promise<number> {
  let cache = balances.get(services);
  if (!cache) balances.set(services, (cache = new Map()));
  const hit = cache.get(teamId);
  if (hit && Date.now() - hit.at < BALANCE_REUSE_MS && hit.balance >= needed + BALANCE_MARGIN) return hit.balance;
  const balance = (await teamBalance(services.db, teamId)) ?? 0;
  if (cache.size >= 10_000) cache.clear();
  cache.set(teamId, { balance, at: Date.now() });
  return balance;
}

/**
 * Admits a request given its key, IP and method (WebSocket upgrades and internal callers use this
 * directly; HTTP routes use `admit`).
 * @throws TrawlError UNAUTHORIZED (401), FORBIDDEN (403), RATE_LIMITED (429), ZDR_NOT_ENABLED (400),
 *         PAYMENT_REQUIRED (402), UNKNOWN_ERROR (500) when the key's restrictions cannot be verified
 */
export async function admitKey(services: Services, ctx: AdmitContext, spec: AdmitSpec): Promise<Principal> {
  const principal = await authenticate(services.db, services.config, ctx.key, spec.keyless ?? false);
  checkRestrictions(principal, spec);
  await limitsFor(services).rate.consume(buckets(services, principal, spec, ctx));
  if (spec.zeroDataRetention && services.config.auth !== 'off') {
    const team = await teamSettings(services.db, principal.teamId, services.config.accounts.authCacheMs);
    if (!team?.zdrEnabled) throw new TrawlError('ZDR_NOT_ENABLED', 'zero data retention is not enabled for this team');
  }
  const isRead = spec.status ?? ['GET', 'HEAD', 'DELETE'].includes(ctx.method.toUpperCase());
  const needed = spec.credits ?? (isRead || ALWAYS_ALLOWED.has(spec.group) ? 0 : 1);
  if (needed > 0) {
    const balance = await balanceFor(services, principal.teamId, needed);
    if (balance < needed) {
      throw new TrawlError(
        'PAYMENT_REQUIRED',
        `Insufficient credits: this request needs ${needed} credit${needed === 1 ? '' : 's'} but the team has ${Math.max(0, balance)} remaining.` +
          (needed > 1 ? ' Lower the limit or the number of URLs, or add credits.' : ' Add credits to continue.'),
      );
    }
  }
  return principal;
}

/**
 * Authenticates and admits an HTTP request: the call every route makes first.
 * @throws see `admitKey`
 */
export function admit(services: Services, request: Request, spec: AdmitSpec): Promise<Principal> {
  return admitKey(services, { key: bearerKey(request.headers.get('authorization')), ip: clientIp(request), method: request.method }, spec);
}
