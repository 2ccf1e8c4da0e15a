/**
 * The guarding proxy of the browser engine (issue 15 items 4 and 8): a small HTTP proxy on 127.0.0.1,
 * one per browser context, that carries every connection the context makes — pages, pop-ups, frames,
 * WebSockets, dedicated, shared and service workers, WebRTC's TCP candidates. For each connection it
 * resolves the host itself (once per scrape, with the policy's resolvers), refuses it when an address
 * is private (`isBlockedAddress`), and connects to exactly the address it checked, or asks the scrape's
 * own proxy route (upstream.ts) for the host. Chromium never resolves a name (launch.ts maps every name
 * to "not found"), so a DNS answer that changes after the check (rebinding) has nothing to act on.
 *
 * It also counts the bytes each connection brings in: past `maxBytes` the connection is cut and the
 * gate's `signal` aborts with SCRAPE_CONTENT_TOO_LARGE, so an endless body cannot grow the browser.
 * Plain HTTP is forwarded one request per connection (`Connection: close`); HTTPS and WebSockets are
 * `CONNECT` tunnels. A gate refuses everything until `configure` gives it a scrape's settings.
 */
import net from 'node:net';
import { TrawlError } from '../../../core/errors.ts';
import type { Logger } from '../../../core/log.ts';
import { createCheckedResolver, connectChecked, bareHost, type CheckedResolver } from '../../../core/net/checked-connect.ts';
import type { Lookup, TargetPolicy } from '../../../core/net/target-policy.ts';
import { HOP_HEADERS, pipeWithClosingHead, spliceConnect } from '../socks/bridge.ts';
import { openUpstream, proxyAuthorization, tunnelThrough } from './upstream.ts';

const MAX_HEAD_BYTES = 64 * 1024;

/** One scrape's rules for its gate. */
export interface GateSettings {
  /** What the SSRF guard allows. */
  policy: TargetPolicy;
  /** Resolver override (default: the policy's DNS servers, else the system resolver). */
  lookup?: Lookup;
  /** The scrape's proxy route (`http(s)://[user:pass@]host:port`); connections go through it. */
  upstream?: string;
  /** Most bytes one connection may bring in (`TRAWL_MAX_FETCH_BYTES`). */
  maxBytes: number;
  log?: Logger;
}

/** Why the gate did not carry a connection to a host. */
export interface GateFailure {
  host: string;
  kind: 'private' | 'unresolved' | 'unreachable' | 'upstream';
  reason: string;
}

/** The guarding proxy of one browser context. */
export class TargetGate {
  private settings?: GateSettings & { resolver: CheckedResolver; proxy?: URL };
  private readonly failures = new Map<string, GateFailure>();
  private readonly sockets = new Set<net.Socket>();
  private readonly controller = new AbortController();
  private closed = false;
  /** Connections refused by the guard. */
  refused = 0;

  private constructor(
    private readonly server: net.Server,
    /** `http://127.0.0.1:<port>`, for Chromium's per-context `proxyServer`. */
    readonly proxyServer: string,
  ) {}

  /** Starts a gate listening on a free port of 127.0.0.1 (it never keeps the process alive). */
  static async start(): Promise<TargetGate> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    const address = server.address() as net.AddressInfo;
    const gate = new TargetGate(server, `http://127.0.0.1:${address.port}`);
    server.on('connection', (s) => gate.accept(s));
    server.on('error', () => undefined);
    return gate;
  }

  /**
   * Gives the gate its scrape's rules; connections before this are refused.
   * @returns the resolver the gate checks with, so the page's own request checks share its answers
   */
  configure(settings: GateSettings): CheckedResolver {
    const resolver = createCheckedResolver(settings.policy, settings.lookup);
    this.settings = { ...settings, resolver, proxy: settings.upstream ? new URL(settings.upstream) : undefined };
    return resolver;
  }

  /** Aborted with SCRAPE_CONTENT_TOO_LARGE once a connection brought in more than `maxBytes`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why a connection to `host` was not carried, if it was not. */
  failure(host: string): GateFailure | undefined {
    return this.failures.get(bareHost(host));
  }

  /** Stops listening and cuts every open connection (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.server.close();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  private track(s: net.Socket): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
    s.on('error', () => s.destroy());
  }

  private accept(client: net.Socket): void {
    if (this.closed) return void client.destroy();
    this.track(client);
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > MAX_HEAD_BYTES) client.destroy();
        return;
      }
      client.off('data', onData);
      client.pause();
      const head = buffered.subarray(0, end).toString('latin1');
      void this.route(client, head, buffered.subarray(end + 4)).catch(() => client.destroy());
    };
    client.on('data', onData);
  }

  private async route(client: net.Socket, head: string, rest: Buffer): Promise<void> {
    const [requestLine = '', ...lines] = head.split('\r\n');
    const [method = '', target = '', version = 'HTTP/1.1'] = requestLine.split(' ');
    const connect = method.toUpperCase() === 'CONNECT';
    const settings = this.settings;
    // A refused CONNECT gets an answer (Chromium reports a tunnel failure); a refused plain request is
    // cut, so that no answer of ours is ever taken for the site's.
    const refuse = (): void => {
      if (connect) client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      else client.destroy();
    };
    if (!settings || this.closed) return refuse();

    let host: string, port: number, url: URL | undefined;
    if (connect) {
      const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
      if (!m) return refuse();
      host = bareHost(m[1]!);
      port = Number(m[2]);
    } else {
      try {
        url = new URL(target);
      } catch {
        return refuse();
      }
      if (url.protocol !== 'http:') return refuse();
      host = bareHost(url.hostname);
      port = Number(url.port || 80);
    }

    const verdict = await settings.resolver.check(host);
    if (!verdict.ok) {
      if (verdict.kind === 'private') this.refused++;
      this.failures.set(host, { host, kind: verdict.kind, reason: verdict.reason });
      settings.log?.debug({ host, kind: verdict.kind }, 'gate refused a connection');
      return refuse();
    }

    const headers = lines.filter((l) => !HOP_HEADERS.has(l.slice(0, l.indexOf(':')).trim().toLowerCase()));
    let socket: net.Socket;
    let early: Buffer = Buffer.alloc(0);
    try {
      if (settings.proxy && connect) ({ socket, head: early } = await tunnelThrough(settings.proxy, host, port));
      else if (settings.proxy) socket = await openUpstream(settings.proxy);
      else socket = await connectChecked(verdict.addresses, port);
    } catch (e) {
      const upstream = settings.proxy !== undefined;
      const reason = upstream ? (e as Error).message : `${host}:${port} could not be reached (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
      this.failures.set(host, { host, kind: upstream ? 'upstream' : 'unreachable', reason });
      return refuse();
    }
    if (this.closed) return void socket.destroy();
    this.track(socket);
    this.count(socket, client, host, settings.maxBytes);
    client.once('close', () => socket.destroy());
    socket.once('close', () => client.end());

    if (connect) {
      spliceConnect(client, socket, early, rest);
    } else {
      // To the site: origin form; to an upstream proxy: absolute form with the route's credentials.
      const requestTarget = settings.proxy ? url!.href : `${url!.pathname}${url!.search}`;
      const auth = settings.proxy ? proxyAuthorization(settings.proxy) : undefined;
      socket.write([`${method} ${requestTarget} ${version}`, ...headers, ...(auth ? [auth] : []), 'Connection: close'].join('\r\n') + '\r\n\r\n');
      if (rest.length) socket.write(rest);
      client.pipe(socket);
      pipeWithClosingHead(socket, client, Buffer.alloc(0));
    }
    client.resume();
  }

  /** Cuts a connection that brings in more than `maxBytes` and aborts the gate's signal. */
  private count(socket: net.Socket, client: net.Socket, host: string, maxBytes: number): void {
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= maxBytes) return;
      socket.destroy();
      client.destroy();
      if (!this.controller.signal.aborted) {
        this.settings?.log?.warn({ host, maxBytes }, 'browser response over the byte cap; the scrape stops');
        this.controller.abort(
          new TrawlError(
            'SCRAPE_CONTENT_TOO_LARGE',
            `[browser] a response from ${host} is larger than ${maxBytes} bytes, the most Trawl reads (TRAWL_MAX_FETCH_BYTES); the page was not scraped.`,
          ),
        );
      }
    });
  }
}
