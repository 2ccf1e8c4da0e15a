/**
 * A SOCKS5 client (RFC 1928, username/password auth of RFC 1929): opens a TCP tunnel through a SOCKS5
 * server to `host:port`. Host names are sent to the proxy unresolved (like `socks5h`), so the proxy
 * resolves them where it is (location proxies). Used by the SOCKS bridge (bridge.ts); Bun's fetch has
 * no SOCKS support of its own.
 */
import net from 'node:net';

/** Time allowed for connecting and the handshake, ms. */
export const SOCKS_HANDSHAKE_TIMEOUT_MS = 10_000;

const REPLIES: Record<number, string> = {
  1: 'general SOCKS server failure',
  2: 'connection not allowed by ruleset',
  3: 'network unreachable',
  4: 'host unreachable',
  5: 'connection refused',
  6: 'TTL expired',
  7: 'command not supported',
  8: 'address type not supported',
};

/** Reads exactly `n` bytes from a socket in handshake mode (data buffered across chunks). */
function reader(socket: net.Socket) {
  let buffered = Buffer.alloc(0);
  let want: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined;
  let failure: Error | undefined;
  const pump = () => {
    if (want && buffered.length >= want.n) {
      const out = buffered.subarray(0, want.n);
      buffered = buffered.subarray(want.n);
      const w = want;
      want = undefined;
      w.resolve(out);
    }
  };
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    pump();
  };
  const fail = (e: Error) => {
    failure = e;
    want?.reject(e);
  };
  socket.on('data', onData);
  socket.once('error', fail);
  socket.once('close', () => fail(new Error('the SOCKS server closed the connection')));
  return {
    read(n: number): Promise<Buffer> {
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        want = { n, resolve, reject };
        pump();
      });
    },
    /** Stops reading and returns bytes that arrived after the handshake. */
    detach(): Buffer {
      socket.pause();
      socket.off('data', onData);
      socket.removeAllListeners('error');
      socket.removeAllListeners('close');
      return buffered;
    },
  };
}

/** Destination address field: IPv4, IPv6 or a domain name. */
function address(host: string): Buffer {
  const h = host.replace(/^\[|\]$/g, '');
  if (net.isIPv4(h)) return Buffer.from([0x01, ...h.split('.').map(Number)]);
  if (net.isIPv6(h)) {
    const groups = expandV6(h);
    const b = Buffer.alloc(17);
    b[0] = 0x04;
    groups.forEach((g, i) => b.writeUInt16BE(g, 1 + i * 2));
    return b;
  }
  const name = Buffer.from(h, 'utf8');
  if (name.length > 255) throw new Error(`host name too long for SOCKS5: ${h.slice(0, 60)}...`);
  return Buffer.concat([Buffer.from([0x03, name.length]), name]);
}

function expandV6(ip: string): number[] {
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const fill = tail !== undefined ? 8 - h.length - t.length : 0;
  return [...h, ...Array(fill).fill('0'), ...t].map((g) => Number.parseInt(g || '0', 16));
}

/**
 * Connects to `host:port` through the SOCKS5 server of `proxy` (`socks5://[user:pass@]host:port`).
 * @returns the connected socket and any bytes the server already sent past the handshake
 * @throws Error naming the SOCKS failure (refused, auth rejected, unreachable, timeout)
 */
export async function socksConnect(proxy: URL, host: string, port: number, timeoutMs = SOCKS_HANDSHAKE_TIMEOUT_MS): Promise<{ socket: net.Socket; head: Buffer }> {
  const socket = net.connect({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 1080) });
  socket.setNoDelay(true);
  const timer = setTimeout(() => socket.destroy(new Error(`SOCKS handshake with ${proxy.host} timed out after ${timeoutMs} ms`)), timeoutMs);
  const r = reader(socket);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const user = decodeURIComponent(proxy.username);
    const pass = decodeURIComponent(proxy.password);
    socket.write(Buffer.from(user ? [0x05, 0x02, 0x00, 0x02] : [0x05, 0x01, 0x00]));
    const [version, method] = await r.read(2);
    if (version !== 0x05) throw new Error(`${proxy.host} is not a SOCKS5 server`);
    if (method === 0x02) {
      if (!user) throw new Error(`the SOCKS server ${proxy.host} asks for a user name and password`);
      const u = Buffer.from(user), p = Buffer.from(pass);
      socket.write(Buffer.concat([Buffer.from([0x01, u.length]), u, Buffer.from([p.length]), p]));
      const [, status] = await r.read(2);
      if (status !== 0x00) throw new Error(`the SOCKS server ${proxy.host} rejected the user name or password`);
    } else if (method !== 0x00) {
      throw new Error(`the SOCKS server ${proxy.host} accepts no authentication method Trawl offers`);
    }
    const portBytes = Buffer.alloc(2);
    portBytes.writeUInt16BE(port);
    socket.write(Buffer.concat([Buffer.from([0x05, 0x01, 0x00]), address(host), portBytes]));
    const [, rep, , atyp] = await r.read(4);
    if (rep !== 0x00) throw new Error(`the SOCKS server ${proxy.host} could not connect to ${host}:${port}: ${REPLIES[rep!] ?? `reply ${rep}`}`);
    const addrLen = atyp === 0x01 ? 4 : atyp === 0x04 ? 16 : (await r.read(1))[0]!;
    await r.read(addrLen + 2);
    clearTimeout(timer);
    return { socket, head: r.detach() };
  } catch (e) {
    clearTimeout(timer);
    r.detach();
    socket.destroy();
    throw e;
  }
}
