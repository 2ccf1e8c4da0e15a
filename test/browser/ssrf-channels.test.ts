/**
 * The browser's side channels to private addresses (issue 15 item 4) and its byte cap per response
 * (item 8), with real Chromium and the guard on (`TRAWL_ALLOW_PRIVATE_TARGETS=127.0.0.1`): fixture
 * pages on 127.0.0.1 (`site.test`) try to reach a canary on the private address 127.0.0.2
 * (`canary.test`, or the address itself) through pop-ups, WebSockets, dedicated, shared and service
 * workers, the executeJavascript action, WebRTC (STUN/TURN) and DNS rebinding. The canary records every
 * TCP connection and UDP datagram it gets: each vector must leave it at 0.
 *
 * Names resolve through a test DNS server (TRAWL_DNS_SERVERS). In the main pool Chromium's own
 * resolver is told the same (and worse: `rebind-*.test` → 127.0.0.2) with `--host-resolver-rules`, which
 * replaces Trawl's "resolve nothing" rule: a channel that bypasses the guarding proxy would reach the
 * canary here as it would on a real network. A second pool runs with Trawl's own flags only.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createSocket, type Socket } from 'node:dgram';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH } from '../../core/config.ts';
import { TrawlError } from '../../core/errors.ts';
import type { Action } from '../../core/http/models/scrape.ts';
import { assertFetchable } from '../../core/net/address.ts';
import { fetchWithBrowser } from '../../plugins/engine/browser/fetch-page.ts';
import { BrowserPool } from '../../plugins/engine/browser/pool.ts';
import { startDnsServer, type TestDnsServer } from '../fixtures/net/dns-server.ts';
import { engineRequest, testEnv, type TestEnv } from './helpers.ts';

setDefaultTimeout(60_000);

const MAX_BYTES = 2_000_000;

let dns: TestDnsServer;
let env: TestEnv;
let pool: BrowserPool;
let site: ReturnType<typeof Bun.serve>;
let port: number;
let canaryTcp: net.Server;
let canaryUdp: Socket;
/** What reached the canary: `tcp <first request line>` or `udp <bytes>`. */
const canary: string[] = [];
/** Requests the fixture server got (path). */
const siteHits: string[] = [];

const page = (body: string) =>
  new Response(`<!doctype html><html><head><meta charset="utf-8"><title>Vector</title></head><body><p>site page</p>${body}</body></html>`, {
    headers: { 'content-type': 'text/html; charset=utf-8' },
  });
const js = (code: string) => new Response(code, { headers: { 'content-type': 'text/javascript' } });

/** Every way a script can try the canary: by name and by address, fetch, XHR and WebSocket. */
const tryAll = (tag: string) => `
  for (const base of ['http://canary.test:PORT', 'http://127.0.0.2:PORT']) {
    fetch(base + '/${tag}-fetch').then(r => r.text()).then(t => { self.leaked = t; }, () => {});
    try { const x = new XMLHttpRequest(); x.open('GET', base + '/${tag}-xhr'); x.send(); } catch {}
    try { new WebSocket(base.replace('http', 'ws') + '/${tag}-ws'); } catch {}
  }`;

function fixture(path: string): Response {
  const p = (s: string) => s.replaceAll('PORT', String(port));
  switch (path) {
    case '/plain':
      return page('');
    case '/popup':
      return page(
        p(`<button id="b" onclick="window.open('http://127.0.0.2:PORT/popup-click')">open</button>
        <script>window.open('http://canary.test:PORT/popup-name'); window.open('http://127.0.0.2:PORT/popup-address', '_blank', 'noopener');</script>`),
      );
    case '/websocket':
      return page(
        p(`<p id="out"></p><script>new WebSocket('ws://canary.test:PORT/ws-name'); new WebSocket('ws://127.0.0.2:PORT/ws-address');
        new WebSocket('ws://site.test:PORT/ws-ok').onmessage = (e) => { document.getElementById('out').textContent = 'site socket says ' + e.data; };</script>`),
      );
    case '/worker':
      return page(
        p(`<script>new Worker('/worker.js');
        new Worker(URL.createObjectURL(new Blob([${JSON.stringify(tryAll('blob-worker'))}.replaceAll('PORT', '${port}')], { type: 'text/javascript' })));</script>`),
      );
    case '/worker.js':
      return js(p(tryAll('worker')));
    case '/shared-worker':
      return page(`<p id="out">waiting</p><script>const w = new SharedWorker('/shared.js'); w.port.onmessage = (e) => { document.getElementById('out').textContent = 'worker said: ' + e.data; }; w.port.start();</script>`);
    case '/shared.js':
      return js(
        p(`${tryAll('shared')}
        onconnect = (e) => { const port = e.ports[0]; fetch('http://127.0.0.2:PORT/shared-answer').then(r => r.text()).then(t => port.postMessage(t), (err) => port.postMessage('no answer')); };`),
      );
    case '/service-worker':
      return page(`<p id="out">waiting</p><script>navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(() => { document.getElementById('out').textContent = 'sw ready'; }, (e) => { document.getElementById('out').textContent = 'sw failed ' + e; });</script>`);
    case '/sw.js':
      return js(
        p(`${tryAll('sw-top')}
        self.addEventListener('install', (e) => { self.skipWaiting(); e.waitUntil(Promise.allSettled([fetch('http://127.0.0.2:PORT/sw-install'), fetch('http://canary.test:PORT/sw-install-name')])); });
        self.addEventListener('activate', (e) => e.waitUntil(clients.claim()));`),
      );
    case '/webrtc':
      return page(
        p(`<pre id="c"></pre><script>
        const pc = new RTCPeerConnection({ iceServers: [
          { urls: ['stun:127.0.0.2:PORT', 'stun:canary.test:PORT'] },
          { urls: ['turn:127.0.0.2:PORT?transport=udp', 'turn:127.0.0.2:PORT?transport=tcp', 'turn:canary.test:PORT?transport=tcp'], username: 'u', credential: 'p' },
        ] });
        pc.createDataChannel('x');
        pc.onicecandidate = (e) => { if (e.candidate) document.getElementById('c').textContent += e.candidate.candidate + '\\n'; };
        pc.createOffer().then((o) => pc.setLocalDescription(o));
        </script>`),
      );
    case '/webtransport':
      return page(p(`<script>for (const u of ['https://127.0.0.2:PORT/wt', 'https://canary.test:PORT/wt']) { try { new WebTransport(u).ready.catch(() => {}); } catch {} }</script>`));
    case '/rebind':
      return page(`<p id="out"></p><script>setTimeout(() => fetch('/again').then(r => r.text()).then(t => { document.getElementById('out').textContent = 'again: ' + t; }), 300);</script>`);
    case '/again':
      return new Response('site again');
    case '/endless':
    case '/endless-sub': {
      const chunk = new TextEncoder().encode(`<p>${'x'.repeat(65_000)}</p>\n`);
      if (path === '/endless-sub') return page(`<script>fetch('/endless').then(r => r.text()).catch(() => {});</script>`);
      return new Response(new ReadableStream({ pull: (c) => c.enqueue(chunk) }), { headers: { 'content-type': 'text/html' } });
    }
    default:
      return new Response('not found', { status: 404 });
  }
}

beforeAll(async () => {
  dns = await startDnsServer({
    'site.test': ['127.0.0.1'],
    'canary.test': ['127.0.0.2'],
    // The first answer is the allowed address, every later one the private address.
    'rebind-a.test': (n) => (n === 1 ? ['127.0.0.1'] : ['127.0.0.2']),
    'rebind-b.test': (n) => (n === 1 ? ['127.0.0.1'] : ['127.0.0.2']),
  });
  env = testEnv({ TRAWL_ALLOW_PRIVATE_TARGETS: '127.0.0.1', TRAWL_DNS_SERVERS: dns.server, TRAWL_MAX_FETCH_BYTES: String(MAX_BYTES) });
  site = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req, server) {
      const path = new URL(req.url).pathname;
      siteHits.push(path);
      if (path === '/ws-ok' && server.upgrade(req, { data: undefined })) return undefined;
      return fixture(path);
    },
    websocket: { open: (ws) => void ws.send('hello'), message: () => undefined },
  });
  port = site.port!;
  // The canary: the same port on the private address 127.0.0.2, TCP and UDP.
  canaryTcp = net.createServer((s) => {
    canary.push('tcp');
    s.on('error', () => s.destroy());
    s.once('data', (d) => {
      canary[canary.length - 1] = `tcp ${d.toString('latin1').split('\r\n')[0]}`;
      s.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 13\r\nConnection: close\r\n\r\nCANARY-SECRET');
    });
  });
  await new Promise<void>((resolve) => canaryTcp.listen(port, '127.0.0.2', resolve));
  canaryUdp = createSocket('udp4');
  canaryUdp.on('message', (m) => canary.push(`udp ${m.length}`));
  await new Promise<void>((resolve) => canaryUdp.bind(port, '127.0.0.2', resolve));
  pool = new BrowserPool({
    chromiumPath: env.config.chromiumPath,
    dataDir: env.config.dataDir,
    size: 1,
    log: env.ctx().log,
    // Chromium's own resolver agrees with the DNS server, and is rebound already: if Chromium ever
    // resolved a name itself, it would reach the canary.
    extraArgs: ['--host-resolver-rules=MAP site.test 127.0.0.1, MAP canary.test 127.0.0.2, MAP rebind-a.test 127.0.0.2, MAP rebind-b.test 127.0.0.2'],
  });
});

afterAll(async () => {
  await pool?.close();
  site?.stop(true);
  canaryTcp?.close();
  canaryUdp?.close();
  await dns?.close();
  env?.cleanup();
});

/** Scrapes a fixture path with the guard on; `host` defaults to site.test. */
function scrape(path: string, opts: { host?: string; waitFor?: number; actions?: Action[]; timeout?: number; on?: BrowserPool } = {}) {
  const url = `http://${opts.host ?? 'site.test'}:${port}${path}`;
  const timeout = opts.timeout ?? 30_000;
  const request = engineRequest(url, { waitFor: opts.waitFor ?? 1_500, actions: opts.actions, timeout }, { targets: env.config.targets, timeoutMs: timeout });
  return fetchWithBrowser(opts.on ?? pool, request, env.ctx());
}

/** Runs a scrape and returns what reached the canary meanwhile (stragglers get a moment to land). */
async function canaryDuring(work: () => Promise<unknown>): Promise<string[]> {
  const before = canary.length;
  await work();
  await Bun.sleep(500);
  return canary.slice(before);
}

async function failure(p: Promise<unknown>): Promise<TrawlError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TrawlError);
    return e as TrawlError;
  }
  throw new Error('expected the scrape to fail');
}

describe('with the guard on, no browser channel reaches a private address', () => {
  test('the canary is reachable at all (the test would see a leak)', async () => {
    const res = await fetch(`http://127.0.0.2:${port}/probe`);
    expect(await res.text()).toBe('CANARY-SECRET');
    expect(canary.splice(0)).toEqual(['tcp GET /probe HTTP/1.1']);
  });

  test('pop-ups, scripted and clicked', async () => {
    let text = '';
    const hits = await canaryDuring(async () => {
      text = (await scrape('/popup', { actions: [{ type: 'click', selector: '#b' }, { type: 'wait', milliseconds: 1_000 }] })).text ?? '';
    });
    expect(hits).toEqual([]);
    expect(text).toContain('site page');
  });

  test('WebSockets from the page (one to the allowed site still works)', async () => {
    let text = '';
    const hits = await canaryDuring(async () => {
      text = (await scrape('/websocket')).text ?? '';
    });
    expect(hits).toEqual([]);
    expect(text).toContain('site socket says hello');
  });

  test('dedicated workers (from a script URL and from a blob)', async () => {
    const hits = await canaryDuring(() => scrape('/worker'));
    expect(hits).toEqual([]);
    expect(siteHits).toContain('/worker.js');
  });

  test("a shared worker, whose fetch answer would land in the output", async () => {
    let text = '';
    const hits = await canaryDuring(async () => {
      text = (await scrape('/shared-worker')).text ?? '';
    });
    expect(hits).toEqual([]);
    expect(text).not.toContain('CANARY-SECRET');
    expect(text).toContain('worker said: no answer');
  });

  test('a service worker (registered from a secure 127.0.0.1 page)', async () => {
    let text = '';
    const hits = await canaryDuring(async () => {
      text = (await scrape('/service-worker', { host: '127.0.0.1' })).text ?? '';
    });
    expect(hits).toEqual([]);
    expect(siteHits).toContain('/sw.js');
    expect(text).toContain('sw ready');
  });

  test('the executeJavascript action: fetch, XHR and WebSocket', async () => {
    const script = tryAll('action').replaceAll('PORT', String(port));
    const hits = await canaryDuring(() => scrape('/plain', { waitFor: 0, actions: [{ type: 'executeJavascript', script }, { type: 'wait', milliseconds: 1_500 }] }));
    expect(hits).toEqual([]);
  });

  test('WebRTC STUN and TURN servers on a private address', async () => {
    const hits = await canaryDuring(() => scrape('/webrtc', { waitFor: 3_000 }));
    expect(hits).toEqual([]);
  });

  // The headless shell and the full browser spell the WebRTC policy switch differently (launch.ts):
  // the binary that is not the default is checked too, since CHROMIUM_PATH may name it.
  test.if(existsSync(HEADLESS_SHELL_PATH) && existsSync(FULL_CHROMIUM_PATH))('WebRTC on the other Chromium binary too', async () => {
    const alt = env.config.chromiumPath === HEADLESS_SHELL_PATH ? FULL_CHROMIUM_PATH : HEADLESS_SHELL_PATH;
    const own = new BrowserPool({ chromiumPath: alt, dataDir: env.config.dataDir, size: 1, log: env.ctx().log, extraArgs: ['--host-resolver-rules=MAP site.test 127.0.0.1, MAP canary.test 127.0.0.2'] });
    try {
      const hits = await canaryDuring(() => scrape('/webrtc', { waitFor: 3_000, on: own }));
      expect(hits).toEqual([]);
    } finally {
      await own.close();
    }
  });

  test('WebTransport (QUIC over UDP)', async () => {
    const hits = await canaryDuring(() => scrape('/webtransport', { host: '127.0.0.1' }));
    expect(hits).toEqual([]);
  });

  test('DNS rebinding: the connection goes to the address the guard approved', async () => {
    // The engine resolves first: 127.0.0.1 is approved and every connection of the scrape goes there,
    // although later answers (and Chromium's own resolver) say 127.0.0.2.
    let text = '';
    let hits = await canaryDuring(async () => {
      text = (await scrape('/rebind', { host: 'rebind-a.test' })).text ?? '';
    });
    expect(hits).toEqual([]);
    expect(text).toContain('site page');
    expect(text).toContain('again: site again');
    // The pipeline's check took the allowed answer; the engine's own resolution gets the private one.
    await assertFetchable(`http://rebind-b.test:${port}/rebind`, env.config.targets);
    let err: TrawlError | undefined;
    hits = await canaryDuring(async () => {
      err = await failure(scrape('/rebind', { host: 'rebind-b.test' }));
    });
    expect(hits).toEqual([]);
    expect(err!.code).toBe('UNSAFE_TARGET');
  });

  test('a page on the private address itself is refused', async () => {
    let err: TrawlError | undefined;
    const hits = await canaryDuring(async () => {
      err = await failure(scrape('/plain', { host: 'canary.test' }));
    });
    expect(hits).toEqual([]);
    expect(err!.code).toBe('UNSAFE_TARGET');
  });
});

describe('what the gate could not carry is reported with the usual codes', () => {
  test('a name that does not resolve, a refused connection, over http and https', async () => {
    // The guard off, so only the gate (not the page's own request check) sees these.
    const targets = { allowAll: true, exceptions: [], dnsServers: [dns.server] };
    const run = (url: string) => failure(fetchWithBrowser(pool, engineRequest(url, { timeout: 20_000 }, { targets, timeoutMs: 20_000 }), env.ctx()));
    expect((await run(`http://nowhere.test:${port}/`)).code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
    expect((await run(`https://nowhere.test:${port}/`)).code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    closed.close();
    for (const scheme of ['http', 'https']) {
      const err = await run(`${scheme}://site.test:${closedPort}/`);
      expect(err.code).toBe('SCRAPE_SITE_ERROR');
      expect(err.message).toContain('could not be reached');
    }
  });
});

describe("with Trawl's own Chromium flags only (Chromium resolves no name)", () => {
  test('the same vectors reach nothing', async () => {
    // Two browsers, the vectors in two lanes at once: each scrape mostly waits (waitFor), and every
    // one of them must leave the canary untouched, whichever ran alongside.
    const own = new BrowserPool({ chromiumPath: env.config.chromiumPath, dataDir: env.config.dataDir, size: 2, log: env.ctx().log });
    try {
      const hits = await canaryDuring(async () => {
        const lanes = [['/popup', '/websocket', '/worker', '/shared-worker'], ['/webrtc', '/webtransport', '/service-worker']];
        await Promise.all(lanes.map(async (lane) => {
          for (const path of lane) await scrape(path, { on: own, host: '127.0.0.1' });
        }));
        // Its first (allowed) answer was used up above: refused now (UNSAFE_TARGET); never the canary.
        await scrape('/rebind', { on: own, host: 'rebind-a.test' }).catch(() => undefined);
      });
      expect(hits).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('byte cap per browser response', () => {
  test('an endless page stops at TRAWL_MAX_FETCH_BYTES with 413, and everything keeps serving', async () => {
    const err = await failure(scrape('/endless', { waitFor: 0, timeout: 20_000 }));
    expect(err.code).toBe('SCRAPE_CONTENT_TOO_LARGE');
    expect(err.status).toBe(413);
    expect(err.message).toContain(String(MAX_BYTES));
    // The fixture server and the browser pool still serve.
    expect(await (await fetch(`http://127.0.0.1:${port}/again`)).text()).toBe('site again');
    expect((await scrape('/plain', { waitFor: 0 })).text).toContain('site page');
  });

  test('an endless subresource stops the scrape the same way', async () => {
    const err = await failure(scrape('/endless-sub', { waitFor: 3_000, timeout: 20_000 }));
    expect(err.code).toBe('SCRAPE_CONTENT_TOO_LARGE');
  });
});
