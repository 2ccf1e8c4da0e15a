/**
 * Issue 15 item 13: each team's webhooks are signed with that team's own secret, generated on first
 * use with no configuration, shown to the team's admin keys (and through `trawl teams
 * webhook-secret`), and rotatable; team B's secret does not verify team A's payloads. Signatures are
 * checked with the constant-time `verifySignature`.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { verifySignature } from '../../core/webhooks/sign.ts';
import { LOCAL_TEAM_ID } from '../../core/auth/authenticate.ts';
import { teamWebhookSecret } from '../../core/webhooks/team-secret.ts';

setDefaultTimeout(90_000);

let site: FixtureSite;
let trawl: AccountsTrawl;
let receiver: ReturnType<typeof Bun.serve>;
const received: { raw: string; signature: string | null; team: string; type: string }[] = [];
const teams: Record<'a' | 'b', { id: string; admin: string; member: string }> = {} as never;

beforeAll(async () => {
  site = serveFixtures({ '/p': '<html><head><title>Dock</title></head><body><p>Dock notes.</p></body></html>' });
  receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const raw = await req.text();
      const body = JSON.parse(raw);
      received.push({ raw, signature: req.headers.get('x-service-signature'), team: body.metadata.team, type: body.type });
      return new Response('ok');
    },
  });
  trawl = await startAccountsTrawl();
  for (const name of ['a', 'b'] as const) {
    const member = await trawl.key();
    const r = await trawl.admin('keys', 'create', '--team', member.team, '--admin');
    teams[name] = { id: member.team, admin: r.out.match(/fc-[0-9a-f]{32}/)![0], member: member.key };
  }
  for (const name of ['a', 'b'] as const) {
    const res = await trawl.post('/v2/batch/scrape', {
      urls: [site.url('/p')],
      webhook: { url: `http://127.0.0.1:${receiver.port}/hook`, metadata: { team: name }, events: ['completed'] },
    }, trawl.auth(teams[name].member));
    expect(res.status).toBe(200);
  }
  for (let i = 0; i < 600 && received.length < 2; i++) await Bun.sleep(100);
});

afterAll(async () => {
  await trawl?.stop();
  receiver?.stop(true);
  site?.stop();
});

const secretOf = async (key: string) => trawl.get('/v2/team/webhook-secret', trawl.auth(key));

describe('per-team webhook secrets', () => {
  test("each team's webhooks carry a valid signature under its own secret, and not under the other team's", async () => {
    expect(received.map((r) => r.team).sort()).toEqual(['a', 'b']);
    const a = (await secretOf(teams.a.admin)).body.secret as string;
    const b = (await secretOf(teams.b.admin)).body.secret as string;
    expect(a).toMatch(/^whsec_/);
    expect(a).not.toBe(b);
    const hookA = received.find((r) => r.team === 'a')!;
    const hookB = received.find((r) => r.team === 'b')!;
    expect(hookA.signature).not.toBe(hookB.signature);
    expect(verifySignature(hookA.raw, hookA.signature, a)).toBe(true);
    expect(verifySignature(hookB.raw, hookB.signature, b)).toBe(true);
    expect(verifySignature(hookA.raw, hookA.signature, b)).toBe(false);
    expect(verifySignature(hookB.raw, hookB.signature, a)).toBe(false);
  });

  test('only admin keys of the team see the secret; the CLI shows it too', async () => {
    expect((await secretOf(teams.a.member)).status).toBe(403);
    expect((await trawl.get('/v2/team/webhook-secret')).status).toBe(401);
    const cli = await trawl.admin('teams', 'webhook-secret', teams.a.id);
    expect(cli.code).toBe(0);
    expect(cli.out).toContain((await secretOf(teams.a.admin)).body.secret);
  });

  test('rotation replaces the secret; later deliveries use the new one', async () => {
    const before = (await secretOf(teams.a.admin)).body.secret;
    const rotated = await trawl.post('/v2/team/webhook-secret/rotate', {}, trawl.auth(teams.a.admin));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(before);
    expect((await secretOf(teams.a.admin)).body.secret).toBe(rotated.body.secret);
    const cli = await trawl.admin('teams', 'webhook-secret', teams.a.id, '--rotate');
    expect(cli.code).toBe(0);
    expect(cli.out).not.toContain(rotated.body.secret);
    const current = (await secretOf(teams.a.admin)).body.secret;
    expect(cli.out).toContain(current);
    const res = await trawl.post('/v2/batch/scrape', {
      urls: [site.url('/p')],
      webhook: { url: `http://127.0.0.1:${receiver.port}/hook`, metadata: { team: 'a2' }, events: ['completed'] },
    }, trawl.auth(teams.a.member));
    expect(res.status).toBe(200);
    for (let i = 0; i < 600 && !received.some((r) => r.team === 'a2'); i++) await Bun.sleep(100);
    const hook = received.find((r) => r.team === 'a2')!;
    expect(verifySignature(hook.raw, hook.signature, current)).toBe(true);
    expect(verifySignature(hook.raw, hook.signature, before)).toBe(false);
  });

  test('TRAWL_WEBHOOK_SECRET is only the local team\'s secret', async () => {
    const db = trawl.running.services.db;
    expect(await teamWebhookSecret(db, LOCAL_TEAM_ID, 'legacy')).toBe('legacy');
    expect(await teamWebhookSecret(db, teams.b.id, 'legacy')).toBe((await secretOf(teams.b.admin)).body.secret);
  });
});
