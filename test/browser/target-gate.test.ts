/**
 * The browser's guarding proxy (plugins/proxy/gate) on its own, without Chromium: it refuses everything
 * until configured, refuses private addresses by name and by address, connects to the address it
 * checked (a name resolved once per gate, so a changed DNS answer has no effect), cuts a connection
 * past the byte cap with SCRAPE_CONTENT_TOO_LARGE, and chains through an upstream proxy with the
 * route's credentials after its own check.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import net from 'node:net';
import { TargetGate } from '../../plugins/proxy/gate/target-gate.ts';
import type { Lookup, TargetPolicy } from '../../core/net/target-policy.ts';

const POLICY: TargetPolicy = { allowAll: false, exceptions: ['127.0.0.1'], dnsServers: [] };

let site: ReturnType<typeof Bun.serve>;
const seen: { path: string; host: string | null; proxyConnection: string | null }[] = [];

beforeAll(() => {
  const big = new Uint8Array(64 * 1024).fill(120);
  site = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const u = new URL(req.url);
      seen.push({ path: u.pathname, host: req.headers.get('host'), proxyConnection: req.headers.get('proxy-connection') });
      if (u.pathname === '/big') return new Response(new ReadableStream({ pull: (c) => c.enqueue(big) }));
      return new Response(`hello ${u.pathname}`);
    },
  });
});
afterAll(() => site?.stop(true));

/** Sends `text` to the gate and reads until the gate (or the target) closes; at most 10 s. */
function exchange(gate: TargetGate, text: string | ((socket: net.Socket, data: string) => void)): Promise<string> {
  const { port } = new URL(gate.proxyServer);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('data', (d) => {
      data += d.toString('latin1');
      if (typeof text === 'function') text(socket, data);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
    socket.write(typeof text === 'string' ? text : 'CONNECT site.test:' + site.port + ' HTTP/1.1\r\n\r\n');
  });
}

const get = (host: string, path = '/hello') => `GET http://${host}:${site.port}${path} HTTP/1.1\r\nHost: ${host}:${site.port}\r\nProxy-Connection: keep-alive\r\n\r\n`;
const connect = (authority: string) => `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`;

describe('target gate', () => {
  test('an unconfigured gate refuses everything', async () => {
    const gate = await TargetGate.start();
    try {
      expect(await exchange(gate, connect(`127.0.0.1:${site.port}`))).toStartWith('HTTP/1.1 403');
      expect(await exchange(gate, get('127.0.0.1'))).toBe('');
    } finally {
      gate.close();
    }
  });

  test('private addresses are refused by name and by address; allowed ones are carried, one request per connection', async () => {
    const gate = await TargetGate.start();
    const lookup: Lookup = async (h) => ({ 'site.test': ['127.0.0.1'], 'canary.test': ['127.0.0.2'] })[h] ?? Promise.reject(new Error('ENOTFOUND'));
    gate.configure({ policy: POLICY, lookup, maxBytes: 1_000_000 });
    try {
      const ok = await exchange(gate, get('site.test'));
      expect(ok).toStartWith('HTTP/1.1 200');
      expect(ok).toContain('Connection: close');
      expect(ok).toEndWith('hello /hello');
      expect(seen.at(-1)).toEqual({ path: '/hello', host: `site.test:${site.port}`, proxyConnection: null });

      expect(await exchange(gate, connect(`canary.test:${site.port}`))).toStartWith('HTTP/1.1 403');
      expect(await exchange(gate, connect(`127.0.0.2:${site.port}`))).toStartWith('HTTP/1.1 403');
      expect(await exchange(gate, get('canary.test'))).toBe('');
      expect(gate.failure('canary.test')).toMatchObject({ kind: 'private' });
      expect(gate.failure('canary.test')!.reason).not.toContain('127.0.0.2');
      expect(await exchange(gate, get('nowhere.test'))).toBe('');
      expect(gate.failure('nowhere.test')).toMatchObject({ kind: 'unresolved' });
      expect(gate.refused).toBe(3);
    } finally {
      gate.close();
    }
  });

  test('a name is resolved once: a changed answer (rebinding) does not move the connection', async () => {
    const gate = await TargetGate.start();
    let calls = 0;
    gate.configure({ policy: POLICY, lookup: async () => (++calls === 1 ? ['127.0.0.1'] : ['127.0.0.2']), maxBytes: 1_000_000 });
    try {
      expect(await exchange(gate, get('flip.test', '/one'))).toEndWith('hello /one');
      expect(await exchange(gate, get('flip.test', '/two'))).toEndWith('hello /two');
      expect(calls).toBe(1);
    } finally {
      gate.close();
    }
  });

  test('a tunnel past the byte cap is cut and the gate signals SCRAPE_CONTENT_TOO_LARGE', async () => {
    const gate = await TargetGate.start();
    gate.configure({ policy: POLICY, lookup: async () => ['127.0.0.1'], maxBytes: 300_000 });
    try {
      let sent = false;
      const data = await exchange(gate, (socket, got) => {
        if (!sent && got.startsWith('HTTP/1.1 200')) {
          sent = true;
          socket.write(`GET /big HTTP/1.1\r\nHost: site.test\r\n\r\n`);
        }
      });
      expect(data.length).toBeGreaterThan(100_000);
      expect(data.length).toBeLessThan(1_000_000);
      expect(gate.signal.aborted).toBe(true);
      expect(gate.signal.reason).toMatchObject({ code: 'SCRAPE_CONTENT_TOO_LARGE', status: 413 });
    } finally {
      gate.close();
    }
  });

  test('an upstream proxy gets the checked host with the route credentials; a private host never reaches it', async () => {
    const heads: string[] = [];
    const upstream = net.createServer((s) => {
      s.on('error', () => undefined);
      s.once('data', (d) => {
        heads.push(d.toString('latin1'));
        const target = net.connect(site.port!, '127.0.0.1', () => {
          s.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          s.pipe(target).pipe(s);
        });
        target.on('error', () => s.destroy());
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const gate = await TargetGate.start();
    const lookup: Lookup = async (h) => (h === 'canary.test' ? ['127.0.0.2'] : ['127.0.0.1']);
    const upstreamPort = (upstream.address() as net.AddressInfo).port;
    gate.configure({ policy: POLICY, lookup, maxBytes: 1_000_000, upstream: `http://user:p%40ss@127.0.0.1:${upstreamPort}` });
    try {
      const tunnel = await exchange(gate, (socket, got) => {
        if (got === 'HTTP/1.1 200 Connection Established\r\n\r\n') socket.write('GET /via HTTP/1.1\r\nHost: site.test\r\nConnection: close\r\n\r\n');
      });
      expect(tunnel).toEndWith('hello /via');
      expect(heads[0]).toStartWith(`CONNECT site.test:${site.port} HTTP/1.1`);
      expect(heads[0]).toContain(`Proxy-Authorization: Basic ${btoa('user:p@ss')}`);
      expect(await exchange(gate, connect(`canary.test:${site.port}`))).toStartWith('HTTP/1.1 403');
      expect(heads.length).toBe(1);
    } finally {
      gate.close();
      upstream.close();
    }
  });
});
