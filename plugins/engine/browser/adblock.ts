/**
 * `blockAds` (interface.md "Scrape options": blocks ads and cookie pop-ups). Two parts: a compact list
 * of well-known ad, tracker and consent-manager hosts plus ad-path patterns, which Chromium itself
 * applies to every subresource request of the page (`AD_BLOCK_URLS`, DevTools'
 * `Network.setBlockedURLs`: no round trip to Trawl per request; navigations are not blocked) and
 * `isAdRequest` checks where requests are intercepted anyway, and a stylesheet + clean-up script that
 * hides common cookie-consent banners and unlocks page scrolling before content is captured.
 */

/** Registrable domains (and their subdomains) of ad networks, trackers and consent managers. */
const AD_HOSTS = [
  // ad networks and exchanges
  'doubleclick.net', 'googlesyndication.com', 'googleadservices.com', 'googletagservices.com', 'adservice.google.com',
  'amazon-adsystem.com', 'adnxs.com', 'adsrvr.org', 'criteo.com', 'criteo.net', 'taboola.com', 'outbrain.com',
  'pubmatic.com', 'rubiconproject.com', 'openx.net', 'casalemedia.com', 'moatads.com', 'media.net', 'yieldmo.com',
  'smartadserver.com', 'adform.net', 'teads.tv', 'sharethrough.com', '33across.com', 'indexww.com', 'bidswitch.net',
  'advertising.com', 'adroll.com', 'quantserve.com', 'zedo.com', 'revcontent.com', 'mgid.com', 'popads.net',
  'propellerads.com', 'adsafeprotected.com', 'serving-sys.com', 'contextweb.com', 'lijit.com', 'sovrn.com',
  // analytics and trackers
  'google-analytics.com', 'googletagmanager.com', 'scorecardresearch.com', 'hotjar.com', 'mouseflow.com',
  'fullstory.com', 'segment.io', 'mixpanel.com', 'chartbeat.com', 'newrelic.com', 'nr-data.net', 'bat.bing.com',
  'connect.facebook.net', 'analytics.twitter.com', 'ads-twitter.com', 'static.ads-twitter.com', 'px.ads.linkedin.com',
  'snap.licdn.com', 'clarity.ms', 'mc.yandex.ru', 'quantcount.com', 'omtrdc.net', 'demdex.net',
  // consent managers (their scripts draw the cookie banners)
  'cookielaw.org', 'onetrust.com', 'cookiebot.com', 'consensu.org', 'trustarc.com', 'privacy-center.org',
  'usercentrics.eu', 'cookiepro.com', 'cookie-script.com', 'termly.io', 'iubenda.com', 'osano.com', 'didomi.io',
  'sourcepoint.com', 'privacy-mgmt.com', 'consentmanager.net', 'cookieyes.com', 'quantcast.com',
];

const HOSTS = new Set(AD_HOSTS);

/** Path segments that mark ad and tracking requests on any host: the segment, then `/`, `.`, `_`, `-` or the end. */
const AD_PATH_SEGMENTS = [
  'pagead', 'adserver', 'adservers', 'ads', 'adframe', 'adsbygoogle', 'adbanner', 'adbanners', 'ad-banner', 'ad-banners',
  'doubleclick', 'prebid',
];
/** Script names that mark ad requests on any host (`<name>.js` as the last path segment). */
const AD_SCRIPTS = ['ads', 'ad', 'prebid', 'adsbygoogle', 'gpt'];

const AD_PATH = new RegExp(`/(?:${AD_PATH_SEGMENTS.join('|')})(?:[/._-]|$)|/(?:${AD_SCRIPTS.join('|')})\\.js$`, 'i');

/**
 * The same rules as `isAdRequest` as wildcard patterns (`*`: any characters) for DevTools'
 * `Network.setBlockedURLs` (`urls`): per host, the host and its subdomains with and without a port;
 * per path rule, the segment after any `/`. Chromium matches them against the whole URL, case
 * sensitive (paths match in lower case only; hosts are lower case in a URL), so a subresource whose
 * query string holds an ad URL is blocked too. Wildcards and not the newer `urlPatterns` (URLPattern
 * syntax, no regular expressions): each page's renderer compiles every URLPattern, ~10 ms of
 * Chromium CPU a page for ~200 of them, while wildcards cost nothing measurable
 * (bench/browser/README.md).
 */
export const AD_BLOCK_URLS: string[] = [
  ...AD_HOSTS.flatMap((h) => [`*://${h}/*`, `*://*.${h}/*`, `*://${h}:*`, `*://*.${h}:*`]),
  ...AD_PATH_SEGMENTS.flatMap((seg) => [`*://*/${seg}`, ...['/', '.', '_', '-'].map((next) => `*://*/${seg}${next}*`)]),
  ...AD_SCRIPTS.map((name) => `*://*/${name}.js*`),
];

/**
 * Whether a request URL is an ad, tracker or consent-manager request.
 * @param url absolute URL of a request
 */
export function isAdRequest(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  const host = u.hostname.toLowerCase();
  for (let h = host; h.includes('.'); h = h.slice(h.indexOf('.') + 1)) {
    if (HOSTS.has(h)) return true;
  }
  return AD_PATH.test(u.pathname);
}

/** Selectors of common cookie-consent banners and their overlays. */
export const COOKIE_BANNER_SELECTORS = [
  '#onetrust-consent-sdk', '#onetrust-banner-sdk', '.onetrust-pc-dark-filter', '#CybotCookiebotDialog',
  '#CybotCookiebotDialogBodyUnderlay', '#usercentrics-root', '#didomi-host', '#didomi-notice', '.qc-cmp2-container',
  '#qc-cmp2-container', '#truste-consent-track', '#consent_blackbar', '.truste_overlay', '.truste_box_overlay',
  '#cmpbox', '#cmpbox2', '.cc-window', '.cc-banner', '.cookie-banner', '#cookie-banner', '.cookie-notice',
  '#cookie-notice', '.cookie-consent', '#cookie-consent', '.cookieconsent', '#cookieConsent', '.cookies-banner',
  '#cookies-banner', '#gdpr-banner', '.gdpr-banner', '#gdpr-consent', '.gdpr-consent', '[id^="sp_message_container"]',
  '.fc-consent-root', '#CookieConsent', '.cky-consent-container', '.cky-overlay', '#iubenda-cs-banner',
  '.osano-cm-window', '#termly-code-snippet-support', '[aria-label="cookieconsent"]', '[class*="cookie-banner"]',
  '[id*="cookie-banner"]', '[class*="cookieBanner"]', '[id*="cookieBanner"]', '[class*="consent-banner"]',
  '[id*="consent-banner"]',
];

/** Stylesheet text hiding the banners (injected at document start so they never flash in screenshots). */
export const COOKIE_BANNER_CSS = `${COOKIE_BANNER_SELECTORS.join(',\n')} { display: none !important; visibility: hidden !important; }`;

/**
 * Script run in the page at document start: adopts a constructed stylesheet hiding the banners.
 * Adopted sheets are not part of the DOM, so the captured HTML stays exactly the site's.
 * Passed to `page.evaluateOnNewDocument(installCookieBannerStyle, css)`.
 */
export function installCookieBannerStyle(css: string): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {
    // very old document types (XML) have no adoptedStyleSheets; the removal before capture still runs
  }
}

/**
 * Run in the page before capture, in one DevTools round trip: removes the elements matching
 * `selectors` (cookie banners, `COOKIE_BANNER_SELECTORS`; none when empty) and the scroll locks banners
 * put on `html`/`body`, then, with `read`, returns the document as HTML serialized as puppeteer's
 * `page.content()` does (each top-level node: the doctype through XMLSerializer, `<html>` by its
 * outerHTML). Self-contained: `page.evaluate` sends its source to the page.
 * @returns the HTML with `read`, else undefined; a selector the page cannot parse is skipped
 */
export function removeBannersAndRead(selectors: string[], read: boolean): string | undefined {
  let removed = 0;
  for (const sel of selectors) {
    let nodes: NodeListOf<Element>;
    try {
      nodes = document.querySelectorAll(sel);
    } catch {
      continue;
    }
    nodes.forEach((n) => {
      if (n === document.body || n === document.documentElement) return;
      n.remove();
      removed++;
    });
  }
  if (removed > 0) {
    for (const el of [document.documentElement, document.body]) {
      if (el && getComputedStyle(el).overflow === 'hidden') el.style.setProperty('overflow', 'auto', 'important');
    }
  }
  if (!read) return undefined;
  let html = '';
  for (const node of Array.from(document.childNodes)) {
    html += node === document.documentElement ? document.documentElement.outerHTML : new XMLSerializer().serializeToString(node);
  }
  return html;
}
