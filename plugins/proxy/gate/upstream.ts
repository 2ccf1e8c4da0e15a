/**
 * The guarding proxy's way out through the scrape's own proxy route (`EngineRequest.proxy`, an HTTP or
 * HTTPS proxy, possibly the SOCKS bridge): `openUpstream` opens a connection to that proxy and
 * `tunnelThrough` asks it for a `CONNECT host:port` tunnel, with the route's credentials. The gate
 * checks the target's addresses before it asks; the upstream proxy then reaches the target from where
 * it stands (location proxies resolve names at their location).
 */
import net from 'node:net';
import tls from 'node:tls';

/** Time allowed to reach the upstream proxy and get its answer to CONNECT, ms. */
export const UPSTREAM_TIMEOUT_MS = 15_000;
const MAX_HEAD_BYTES = 64 * 1024;

/** `Proxy-Authorization` header line for a proxy URL with credentials, or undefined. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username) return undefined;
  const creds = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Proxy-Authorization: Basic ${Buffer.from(creds).toString('base64')}`;
}

/**
 * A connection to the upstream proxy itself (TLS for an `https:` proxy).
 * @throws Error when the proxy cannot be reached in time
 */
export function openUpstream(proxy: URL): Promise<net.Socket> {
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  const port = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket = proxy.protocol === 'https:' ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    const ready = proxy.protocol === 'https:' ? 'secureConnect' : 'connect';
    const timer = setTimeout(() => socket.destroy(new Error(`the proxy ${proxy.host} did not answer in ${UPSTREAM_TIMEOUT_MS} ms`)), UPSTREAM_TIMEOUT_MS);
    socket.once(ready, () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (e: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new Error(`the proxy ${proxy.host} could not be reached: ${e.message}`));
    });
  });
}

/**
 * Opens a tunnel to `host:port` through the upstream proxy.
 * @returns the socket (tunnel established) and any bytes the target already sent
 * @throws Error naming the proxy's answer when it refuses (407, 403, 502 ...) or fails
 */
export async function tunnelThrough(proxy: URL, host: string, port: number): Promise<{ socket: net.Socket; head: Buffer }> {
  const socket = await openUpstream(proxy);
  const authority = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
  const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`, proxyAuthorization(proxy)].filter(Boolean);
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => fail(new Error(`the proxy ${proxy.host} did not answer CONNECT in ${UPSTREAM_TIMEOUT_MS} ms`)), UPSTREAM_TIMEOUT_MS);
    const fail = (e: Error) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.destroy();
      reject(e);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > MAX_HEAD_BYTES) fail(new Error(`the proxy ${proxy.host} sent an oversized answer`));
        return;
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(buffered.subarray(0, end).toString('latin1'))?.[1];
      if (status !== '200') return fail(new Error(`the proxy ${proxy.host} answered CONNECT with ${status ?? 'garbage'}`));
      clearTimeout(timer);
      socket.off('data', onData);
      socket.removeAllListeners('error');
      socket.removeAllListeners('close');
      socket.pause();
      resolve({ socket, head: buffered.subarray(end + 4) });
    };
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once('close', () => fail(new Error(`the proxy ${proxy.host} closed the connection`)));
  });
}
