/**
 * The SOCKS bridge: a small HTTP proxy on 127.0.0.1 that forwards each connection through an upstream
 * SOCKS5 server (client.ts). Bun's fetch speaks only HTTP proxies and Chromium cannot authenticate to
 * SOCKS proxies, so a configured `socks5://[user:pass@]host:port` route is handed to both engines as
 * `http://trawl:<token>@127.0.0.1:<port>` (the token selects the upstream and keeps other local
 * processes out). `CONNECT host:port` (HTTPS) becomes a raw tunnel; an absolute-form request
 * (`GET http://host/path`, plain HTTP) is forwarded in origin form with `Connection: close` on the
 * request and the response, so a client never reuses the tunnel for another host. The bridge starts
 * on first use and never keeps the process alive.
 */
import net from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { socksConnect } from './client.ts';

const MAX_HEAD_BYTES = 64 * 1024;
/** Hop-by-hop headers a proxy never forwards. */
export const HOP_HEADERS = new Set(['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive']);

let server: net.Server | undefined;
let port = 0;
/** token -> upstream SOCKS URL; url -> token. */
const upstreams = new Map<string, URL>();
const tokens = new Map<string, string>();

/** Whether a proxy URL names a SOCKS5 server (`socks5:`, `socks5h:`, `socks:`). */
export function isSocksUrl(url: string): boolean {
  return /^socks(5h?)?:\/\//i.test(url);
}

/**
 * The HTTP proxy URL that reaches the web through `socksUrl` (starting the bridge if needed).
 * @param socksUrl `socks5://[user:pass@]host:port`
 * @returns `http://trawl:<token>@127.0.0.1:<port>`
 */
export function bridgeUrl(socksUrl: string): string {
  ensureServer();
  let token = tokens.get(socksUrl);
  if (!token) {
    token = randomBytes(18).toString('hex');
    tokens.set(socksUrl, token);
    upstreams.set(token, new URL(socksUrl));
  }
  return `http://trawl:${token}@127.0.0.1:${port}`;
}

/** Stops the bridge (tests); open tunnels are closed. */
export function stopBridge(): void {
  server?.close();
  server = undefined;
}

function ensureServer(): void {
  if (server) return;
  const s = net.createServer({ pauseOnConnect: false }, handle);
  s.on('error', () => undefined);
  s.listen(0, '127.0.0.1');
  const address = s.address();
  if (!address || typeof address === 'string') throw new Error('[proxy] the SOCKS bridge could not listen on 127.0.0.1');
  port = address.port;
  s.unref();
  server = s;
}

function reply(client: net.Socket, status: string, headers: string[] = [], body = ''): void {
  client.end(`HTTP/1.1 ${status}\r\n${[...headers, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`);
}

/** The upstream a `Proxy-Authorization: Basic base64(user:token)` header selects, if any. */
function authorize(value: string | undefined): URL | undefined {
  const m = /^basic\s+(\S+)/i.exec(value ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const token = decoded.slice(decoded.indexOf(':') + 1);
  for (const [known, url] of upstreams) {
    const a = Buffer.from(known), b = Buffer.from(token);
    if (a.length === b.length && timingSafeEqual(a, b)) return url;
  }
  return undefined;
}

function handle(client: net.Socket): void {
  let buffered = Buffer.alloc(0);
  client.on('error', () => client.destroy());
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) {
      if (buffered.length > MAX_HEAD_BYTES) reply(client, '431 Request Header Fields Too Large');
      return;
    }
    client.off('data', onData);
    client.pause();
    void route(client, buffered.subarray(0, end).toString('latin1'), buffered.subarray(end + 4)).catch(() => client.destroy());
  };
  client.on('data', onData);
}

async function route(client: net.Socket, head: string, rest: Buffer): Promise<void> {
  const [requestLine = '', ...lines] = head.split('\r\n');
  const [method = '', target = '', version = 'HTTP/1.1'] = requestLine.split(' ');
  const headers = lines.map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()] as const);
  const upstream = authorize(headers.find(([k]) => k.toLowerCase() === 'proxy-authorization')?.[1]);
  if (!upstream) return reply(client, '407 Proxy Authentication Required', ['Proxy-Authenticate: Basic realm="trawl-socks-bridge"']);

  let host: string, port: number, forwardHead: string | undefined;
  if (method.toUpperCase() === 'CONNECT') {
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(target);
    if (!m) return reply(client, '400 Bad Request');
    host = m[1]!;
    port = Number(m[2]);
  } else {
    let u: URL;
    try {
      u = new URL(target);
    } catch {
      return reply(client, '400 Bad Request');
    }
    if (u.protocol !== 'http:') return reply(client, '400 Bad Request');
    host = u.hostname;
    port = Number(u.port || 80);
    const kept = headers.filter(([k]) => !HOP_HEADERS.has(k.toLowerCase())).map(([k, v]) => `${k}: ${v}`);
    forwardHead = [`${method} ${u.pathname}${u.search} ${version}`, ...kept, 'Connection: close'].join('\r\n') + '\r\n\r\n';
  }

  let tunnel: Awaited<ReturnType<typeof socksConnect>>;
  try {
    tunnel = await socksConnect(upstream, host, port);
  } catch (e) {
    return reply(client, '502 Bad Gateway', ['Content-Type: text/plain', 'X-Trawl-Proxy-Error: socks'], `SOCKS5 proxy failed: ${(e as Error).message}`);
  }
  const { socket, head: early } = tunnel;
  socket.on('error', () => client.destroy());
  client.on('close', () => socket.destroy());
  socket.on('close', () => client.end());
  if (forwardHead === undefined) {
    spliceConnect(client, socket, early, rest);
  } else {
    socket.write(forwardHead);
    if (rest.length) socket.write(rest);
    client.pipe(socket);
    pipeWithClosingHead(socket, client, early);
  }
  client.resume();
}

/**
 * Answers a CONNECT with 200 and splices the client and the tunnel both ways, first passing on what
 * each side sent early (`early`: read from the tunnel; `rest`: read from the client after its head).
 * Also used by the guarding proxy (plugins/proxy/gate).
 */
export function spliceConnect(client: net.Socket, socket: net.Socket, early: Buffer, rest: Buffer): void {
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (early.length) client.write(early);
  if (rest.length) socket.write(rest);
  client.pipe(socket);
  socket.pipe(client);
}

/**
 * Copies a response to the client, rewriting its head to say `Connection: close` (so the client never
 * reuses the connection for another host). Also used by the guarding proxy (plugins/proxy/gate).
 */
export function pipeWithClosingHead(from: net.Socket, to: net.Socket, early: Buffer): void {
  let buffered = early;
  const flushHead = (): boolean => {
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return false;
    const lines = buffered.subarray(0, end).toString('latin1').split('\r\n');
    const kept = lines.filter((l, i) => i === 0 || !HOP_HEADERS.has(l.slice(0, l.indexOf(':')).trim().toLowerCase()));
    to.write(Buffer.from([...kept, 'Connection: close'].join('\r\n') + '\r\n\r\n', 'latin1'));
    const body = buffered.subarray(end + 4);
    if (body.length) to.write(body);
    from.off('data', onData);
    from.pipe(to);
    return true;
  };
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (!flushHead() && buffered.length > MAX_HEAD_BYTES) to.destroy();
  };
  if (!flushHead()) {
    from.on('data', onData);
    from.resume();
  }
}
