/**
 * The fixture site of the load benches (scrape-load.ts, scrape-profile.ts): on 127.0.0.1, every path
 * `/<n>` is a ~6 KB article page "Harbour notice <n>" (40 paragraphs, a nav, a list of 20 links and a
 * footer), so any number of distinct pages can be asked for.
 */
const PARA = 'The harbour master keeps the tide tables and the list of berths; ships report on channel 12 before entering. ';

/** Starts the site on a free port; `url(n)` is page n; `stop()` closes it. */
export function serveNoticeSite(): { url(n: number): string; stop(): void } {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const n = new URL(req.url).pathname.slice(1);
      const body = `<!doctype html><html lang="en"><head><title>Harbour notice ${n}</title><meta name="description" content="Notice ${n}"></head>
<body><nav><a href="/">Home</a></nav><main><article><h1>Harbour notice ${n}</h1>${Array.from({ length: 40 }, (_, i) => `<p>${i}. ${PARA}</p>`).join('')}
<ul>${Array.from({ length: 20 }, (_, i) => `<li><a href="/${i}">Notice ${i}</a></li>`).join('')}</ul></article></main><footer>Port authority</footer></body></html>`;
      return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    },
  });
  return { url: (n) => `http://127.0.0.1:${server.port}/${n}`, stop: () => server.stop(true) };
}
