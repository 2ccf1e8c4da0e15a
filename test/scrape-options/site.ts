/**
 * Fixture site of the scrape-options tests, served by the tests on 127.0.0.1 (port 0): a page
 * rendered by JavaScript, a form with buttons, an infinite-scroll list, a cookie banner, a slow page,
 * a page that crashes the tab (it allocates memory until the renderer dies), a late page (content
 * after a timer, for waitFor), an echo page (headers, proxy `Via`, the peer address, client facts), a
 * counting page (a new number per fetch: the cache tests see whether the site was contacted), a page
 * guarded against one peer address (for `proxy: auto`), and login/account pages setting a cookie and
 * localStorage (profiles). Every request is recorded with its path, headers and peer address.
 */

export interface SiteHit {
  path: string;
  headers: Record<string, string>;
  /** Address the request came from (127.0.0.2 when it came through microsocks bound there). */
  peer: string;
}

const page = (body: string, title = 'Fixture') =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>pre{white-space:pre-wrap;word-break:break-all}</style></head><body>${body}</body></html>`,
    { headers: { 'content-type': 'text/html; charset=utf-8' } },
  );

const ARTICLE =
  '<p>Tides rise and fall twice a day along the coast. Fishermen read the tide tables before they leave the harbour, and the ferries keep to them as well.</p>' +
  '<p>Spring tides come at new and full moon; neap tides come between them, when the sun and the moon pull at right angles.</p>';

export function startSite() {
  const hits: SiteHit[] = [];
  let counter = 0;
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req, srv): Promise<Response> {
      const u = new URL(req.url);
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => (headers[k] = v));
      const peer = srv.requestIP(req)?.address ?? '';
      hits.push({ path: u.pathname + u.search, headers, peer });
      switch (u.pathname) {
        case '/article':
          return page(`<main><h1>Tide tables</h1>${ARTICLE}</main>`, 'Tide tables');
        case '/counter':
          counter++;
          return page(`<main><h1>Visit counter</h1><p>This is visit number ${counter} to the counting page.</p>${ARTICLE}</main>`, 'Counter');
        case '/js':
          return page(
            '<div id="root"></div><script>fetch("/api/story").then(r => r.json()).then(d => { document.getElementById("root").innerHTML = "<h1>" + d.title + "</h1><p>" + d.text + "</p>"; });</script>',
            'App',
          );
        case '/api/story':
          await Bun.sleep(100);
          return Response.json({ title: 'Rendered in the browser', text: 'This story was fetched and drawn by JavaScript after the page loaded.' });
        case '/form':
          return page(`<main><h1>Greeting form</h1>
            <input id="name" type="text" placeholder="Your name"><button id="go" onclick="document.getElementById('out').textContent = 'Hello, ' + document.getElementById('name').value + '!'">Greet</button>
            <p id="out">Nobody greeted yet.</p><p>Clicks: <span id="count">0</span></p>
            <button class="inc" onclick="count.textContent = +count.textContent + 1">+1</button>
            <button class="inc" onclick="count.textContent = +count.textContent + 1">+1</button></main>`, 'Form');
        case '/scroll':
          return page(
            `<main><h1>Endless list</h1><div id="list"></div></main>
            <script>let n = 0, busy = false; const list = document.getElementById('list');
            async function more() { if (busy) return; busy = true; const r = await fetch('/api/items?from=' + n); for (const t of await r.json()) { const d = document.createElement('p'); d.style.height = '400px'; d.textContent = t; list.appendChild(d); n++; } busy = false; }
            more(); addEventListener('scroll', () => { if (innerHeight + scrollY >= document.body.scrollHeight - 300) more(); });</script>`,
            'Scroll',
          );
        case '/api/items': {
          const from = Number(u.searchParams.get('from') ?? 0);
          return Response.json(Array.from({ length: 4 }, (_, i) => `List entry number ${from + i}`));
        }
        case '/banner':
          return page(`<main><h1>Harbour news</h1>${ARTICLE}</main>
            <div class="cookie-banner" style="position:fixed;bottom:0;left:0;right:0;background:#333;color:#fff">
              <p>We use cookies to improve your experience. Do you accept all cookies?</p>
              <button id="accept" onclick="document.cookie='consent=yes;path=/'; this.parentNode.remove()">Accept all</button></div>`, 'Banner');
        case '/late':
          return page(`<main><h1>Late content</h1><p id="late">Loading...</p>${ARTICLE}</main>
            <script>setTimeout(() => { document.getElementById('late').textContent = 'The late paragraph arrived after a timer.'; }, 1500);</script>`, 'Late');
        case '/slow':
          await Bun.sleep(Number(u.searchParams.get('ms') ?? 10_000));
          return page('<p>The slow page finally answered.</p>', 'Slow');
        case '/crash':
          return page(
            `<p>This page eats memory until the tab dies.</p><script>const keep = []; (function grow() { for (let i = 0; i < 50; i++) keep.push(new Array(1e6).fill(Math.random())); setTimeout(grow, 0); })();</script>`,
            'Crash',
          );
        case '/echo':
          return page(
            `<pre id="server">${JSON.stringify({ ua: headers['user-agent'] ?? null, al: headers['accept-language'] ?? null, via: headers.via ?? null, x: headers['x-fixture'] ?? null, peer })}</pre><pre id="client"></pre>
            <script>document.getElementById('client').textContent = JSON.stringify({ width: innerWidth, touch: navigator.maxTouchPoints, language: navigator.language, tz: Intl.DateTimeFormat().resolvedOptions().timeZone });</script>`,
            'Echo',
          );
        case '/guarded':
          // Blocks every visitor except one coming from 127.0.0.2 (the SOCKS proxy of the tests).
          if (peer !== '127.0.0.2' && peer !== '::ffff:127.0.0.2') {
            return new Response('<html><head><title>Access denied</title></head><body><h1>Access denied</h1><p>Unusual traffic from your network.</p></body></html>', {
              status: 403,
              headers: { 'content-type': 'text/html' },
            });
          }
          return page(`<main><h1>Guarded page</h1><p>Welcome, visitor from ${peer}.</p>${ARTICLE}</main>`, 'Guarded');
        case '/login': {
          const user = u.searchParams.get('user') ?? 'ada';
          const res = page(`<main><h1>Signed in</h1><p>Signed in as ${user}.</p></main><script>localStorage.setItem('theme', ${JSON.stringify(u.searchParams.get('theme') ?? 'dark')});</script>`, 'Login');
          res.headers.append('set-cookie', `session=${user}; Path=/; Max-Age=3600; HttpOnly`);
          return res;
        }
        case '/account': {
          const session = /(?:^|;\s*)session=([^;]+)/.exec(headers.cookie ?? '')?.[1];
          return page(
            `<main><h1>Account</h1><p id="who">${session ? `Logged in as ${session}.` : 'Not logged in.'}</p><p id="theme"></p></main>
            <script>document.getElementById('theme').textContent = 'Theme: ' + (localStorage.getItem('theme') ?? 'none') + '.';</script>`,
            'Account',
          );
        }
        default:
          return new Response('not found', { status: 404 });
      }
    },
  });
  return {
    hits,
    port: server.port!,
    url: (path: string) => `http://127.0.0.1:${server.port}${path}`,
    /** How many requests reached `path` (path with query). */
    count: (path: string) => hits.filter((h) => h.path === path).length,
    stop: () => server.stop(true),
  };
}

export type Site = ReturnType<typeof startSite>;

/** A TCP port nothing listens on right now. */
export function freePort(): number {
  const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}
