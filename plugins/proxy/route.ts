/**
 * Builds a `ProxyRoute` from a configured proxy URL: HTTP(S) proxies are used as they are; SOCKS5
 * proxies are reached through the local SOCKS bridge (socks/bridge.ts), so every engine only ever
 * sees an HTTP proxy. Route names never carry credentials (they appear in logs and errors).
 */
import type { ProxyRoute } from '../../core/plugin.ts';
import { TrawlError } from '../../core/errors.ts';
import { bridgeUrl, isSocksUrl } from './socks/bridge.ts';

/**
 * @param name  route name for logs (`basic`, `enhanced`, `country:DE`)
 * @param url   `http://[user:pass@]host:port`, `https://...` or `socks5://[user:pass@]host:port`
 * @param tier  what `metadata.proxyUsed` reports
 * @throws TrawlError BACKEND_UNAVAILABLE for another scheme (socks4, ftp ...)
 */
export function proxyRoute(name: string, url: string, tier: ProxyRoute['tier']): ProxyRoute {
  if (isSocksUrl(url)) return { name: `${name} (socks5)`, url: bridgeUrl(url.replace(/^socks5h?:|^socks:/i, 'socks5:')), tier };
  if (/^https?:\/\//i.test(url)) return { name, url, tier };
  throw new TrawlError('BACKEND_UNAVAILABLE', `[proxy] the ${name} proxy has an unsupported scheme: ${url.split(':')[0]} (use http, https or socks5)`);
}
