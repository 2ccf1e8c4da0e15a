/**
 * The configured proxies (issue 3 scope 4): `TRAWL_PROXY_BASIC` serves the basic tier and
 * `TRAWL_PROXY_ENHANCED` the enhanced tier (`metadata.proxyUsed: "stealth"`). Values are upstream HTTP
 * proxies (`http://user:pass@host:port`) or SOCKS5 proxies (`socks5://[user:pass@]host:port`, reached
 * through the local SOCKS bridge). No route for a tier means a direct connection for that tier.
 */
import { defineProxy } from '../../core/plugin.ts';
import { proxyRoute } from './route.ts';

export default defineProxy({
  name: 'configured',
  route({ tier }, config) {
    const url = tier === 'enhanced' ? config.proxies.enhanced : config.proxies.basic;
    return url ? proxyRoute(tier, url, tier === 'enhanced' ? 'stealth' : 'basic') : undefined;
  },
});
