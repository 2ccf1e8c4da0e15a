/**
 * Helpers of the agent tests (issue 19): a real Trawl on a fresh Postgres database with the fake
 * OpenAI-compatible model (test/fakes/openai-chat.ts) and the fake Serper search API configured, a
 * small shop site on 127.0.0.1, a webhook receiver, and a script of agent turns. Agent-loop requests
 * (those offering the `scrape` tool) take the scripted turns in order, then `agentDefault`; every
 * other model request (the json format run by the extract tool) gets `formatAnswer`, else the fake's
 * default (a value sampled from the request's schema).
 */
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { startFakeChat, type FakeAnswer, type FakeChat } from '../fakes/openai-chat.ts';
import type { ChatBody } from '../fakes/openai-chat-check.ts';
import { startFakeSerper, SERPER_KEY } from '../fakes/serper.ts';
import type { Fake } from '../fakes/server.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body><main>${body}</main></body></html>`;

/** The shop site: a home page linking two products, and a sitemap. */
export function startShop(): FixtureSite {
  let origin = '';
  const site = serveFixtures({
    '/': page('Shop', '<h1>Shop</h1><p>Our products.</p><a href="/products/widget">Widget</a> <a href="/products/gadget">Gadget</a>'),
    '/products/widget': page('Widget', '<h1>Widget</h1><p>The Widget costs $19.99 and ships in 2 days.</p>'),
    '/products/gadget': page('Gadget', '<h1>Gadget</h1><p>The Gadget costs $5.00 and ships in 9 days.</p>'),
    '/sitemap.xml': () => new Response(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url><url><loc>${origin}/products/widget</loc></url><url><loc>${origin}/products/gadget</loc></url></urlset>`, { headers: { 'content-type': 'application/xml' } }),
  });
  origin = site.origin;
  return site;
}

/** Whether a model request comes from the agent loop (it offers the agent's tools). */
export function isAgentTurn(body: ChatBody): boolean {
  return (body.tools ?? []).some((t) => t.function?.name === 'scrape');
}

/** Received webhook calls. */
export interface Received {
  body: any;
  raw: string;
  signature: string | null;
}

export interface AgentWorld {
  trawl: AccountsTrawl;
  fake: FakeChat;
  serper: Fake;
  shop: FixtureSite;
  hooks: FixtureSite;
  received: Received[];
  /** Turns given to the next agent-loop requests, in order. */
  turns: FakeAnswer[];
  /** The agent-loop answer once `turns` is empty (undefined: the fake's default). */
  agentDefault?: (body: ChatBody) => FakeAnswer | undefined;
  /** The answer to json format requests (undefined: the fake's default). */
  formatAnswer?: FakeAnswer;
  /** Agent-loop requests so far. */
  agentRequests(): ChatBody[];
  stop(): Promise<void>;
}

/** Starts everything. @param env extra Trawl environment */
export async function startAgentWorld(env: Record<string, string> = {}): Promise<AgentWorld> {
  const received: Received[] = [];
  const hooks = serveFixtures({
    '/hook': async (req) => {
      const raw = await req.text();
      received.push({ body: JSON.parse(raw), raw, signature: req.headers.get('x-firecrawl-signature') });
      return new Response('ok');
    },
  });
  const world = { turns: [] as FakeAnswer[] } as AgentWorld;
  const fake = startFakeChat({
    respond: (body) => (isAgentTurn(body) ? (world.turns.shift() ?? world.agentDefault?.(body)) : world.formatAnswer),
  });
  const serper = startFakeSerper();
  const shop = startShop();
  const trawl = await startAccountsTrawl({
    OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-model', SERPER_API_KEY: SERPER_KEY, SERPER_API_URL: serper.origin, ...env,
  });
  return Object.assign(world, {
    trawl, fake, serper, shop, hooks, received,
    agentRequests: () => fake.requests.map((r) => r.body as ChatBody).filter(isAgentTurn),
    async stop() {
      await trawl.stop();
      fake.stop();
      serper.stop();
      shop.stop();
      hooks.stop();
    },
  });
}

/** Polls `GET /v2/agent/{id}` until the run leaves `processing` (bound: `ms`). */
export async function waitForEnd(t: AccountsTrawl, id: string, key: string, ms = 60_000): Promise<any> {
  const until = Date.now() + ms;
  for (;;) {
    const res = await t.get(`/v2/agent/${id}`, t.auth(key));
    if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
    if (res.body.status !== 'processing') return res.body;
    if (Date.now() > until) throw new Error(`agent ${id} still processing after ${ms} ms: ${res.text}`);
    await Bun.sleep(200);
  }
}

/** Waits for `cond` (bound: `ms`). */
export async function until(cond: () => boolean | Promise<boolean>, ms = 30_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}
