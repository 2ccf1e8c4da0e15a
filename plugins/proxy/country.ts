/**
 * Proxies per country (interface.md `location`: "a matching proxy is used when available"):
 * `TRAWL_PROXY_COUNTRIES=DE=http://de-proxy:3128,FR=socks5://fr-proxy:1080` gives requests with
 * `location.country` DE or FR their own route on the basic tier. The enhanced tier keeps the
 * enhanced proxy, so `proxy: "auto"` still has somewhere else to go when the country proxy fails.
 */
import { defineProxy } from '../../core/plugin.ts';
import { proxyRoute } from './route.ts';

export default defineProxy({
  name: 'country',
  route({ tier, country }, config) {
    if (tier !== 'basic' || !country) return undefined;
    const url = config.proxies.countries[country.toUpperCase()];
    return url ? proxyRoute(`country:${country.toUpperCase()}`, url, 'basic') : undefined;
  },
});
