/**
 * The bench's fixture site on 127.0.0.1: `PAGES` pages that are client-rendered shells (an empty
 * `#root`, a script fetching `/api/<n>` and drawing a ~5 KB article), so every page needs a browser.
 */

const para = 'The harbour master keeps the tide tables and the list of berths; ships report on channel 12 before entering the basin. ';

export function startBenchSite() {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const api = /^\/api\/(\d+)$/.exec(path);
      if (api) {
        await Bun.sleep(20); // a small backend delay, as a real API has
        const n = api[1];
        return Response.json({ title: `Harbour notice ${n}`, paragraphs: Array.from({ length: 40 }, (_, i) => `${i}. ${para}`) });
      }
      const page = /^\/p\/(\d+)$/.exec(path);
      if (!page) return new Response('not found', { status: 404 });
      return new Response(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notice ${page[1]}</title></head><body><div id="root"></div>
<script>fetch('/api/${page[1]}').then((r) => r.json()).then((d) => { document.getElementById('root').innerHTML = '<main><h1>' + d.title + '</h1>' + d.paragraphs.map((p) => '<p>' + p + '</p>').join('') + '</main>'; });</script></body></html>`,
        { headers: { 'content-type': 'text/html; charset=utf-8' } },
      );
    },
  });
  return { url: (i: number) => `http://127.0.0.1:${server.port}/p/${i}`, stop: () => server.stop(true) };
}
