/**
 * The credit ledger and usage figures on both databases: charges are idempotent per (kind, refId),
 * the balance and the ledger agree, refunds respect the daily cap, and usage history groups by
 * month and key (core/credits; compat.md §16, §18.1).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { forEachDatabase, openTestDatabase, rejectionOf, type TestDatabase } from '../helpers/db.ts';
import { chargeCredits, grantCredits, refundSearchFeedback, setCredits, teamBalance } from '../../core/credits/ledger.ts';
import { creditUsage, tokenUsage, usageHistory } from '../../core/credits/usage.ts';
import { scrapeCredits, searchCredits } from '../../core/credits/costs.ts';
import { createKey, createTeam } from '../../core/auth/keys.ts';
import { newId } from '../../core/ids.ts';
import { defineFormat } from '../../core/plugin.ts';

test('credit table (interface.md Limits); formats add the credits they declare', () => {
  const md = [{ type: 'markdown' }];
  // JSON mode's +4 is declared by its format plugin (issue 16); a stand-in declares the same here.
  const plugins = new Map([
    ['markdown', defineFormat({ name: 'markdown', produce: () => ({}) })],
    ['json', defineFormat({ name: 'json', credits: 4, produce: () => ({}) })],
  ]);
  expect(scrapeCredits({ formats: md, lockdown: false }, { metadata: {} }, plugins)).toBe(1);
  expect(scrapeCredits({ formats: md, lockdown: false }, { metadata: { creditsUsed: 7 } }, plugins)).toBe(7); // 7 PDF pages
  expect(scrapeCredits({ formats: [...md, { type: 'json' }], lockdown: false }, { metadata: { creditsUsed: 1 } }, plugins)).toBe(5);
  expect(scrapeCredits({ formats: md, lockdown: true }, { metadata: { creditsUsed: 1, cacheState: 'hit' } }, plugins)).toBe(5);
  expect(scrapeCredits({ formats: [{ type: 'json' }], lockdown: true }, { metadata: { cacheState: 'hit' } }, plugins)).toBe(9);
  expect(searchCredits(0)).toBe(0);
  expect(searchCredits(1)).toBe(2);
  expect(searchCredits(10)).toBe(2);
  expect(searchCredits(11)).toBe(4);
  expect(searchCredits(25, ['zdr'])).toBe(30);
  expect(searchCredits(25, ['anon'])).toBe(6);
});

forEachDatabase((kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('charges change the balance once per (kind, refId)', async () => {
    const team = await createTeam(t.db, 'ledger', 100, 2);
    const ref = newId();
    const a = await chargeCredits(t.db, { teamId: team, kind: 'scrape', refId: ref, credits: 5 });
    expect(a).toEqual({ applied: true, balance: 95 });
    const again = await chargeCredits(t.db, { teamId: team, kind: 'scrape', refId: ref, credits: 5 });
    expect(again.applied).toBe(false);
    expect(await teamBalance(t.db, team)).toBe(95);
    // Concurrent duplicates: still one charge.
    const ref2 = newId();
    const results = await Promise.all(Array.from({ length: 8 }, () => chargeCredits(t.db, { teamId: team, kind: 'scrape', refId: ref2, credits: 3 })));
    expect(results.filter((r) => r.applied).length).toBe(1);
    expect(await teamBalance(t.db, team)).toBe(92);
    // Same ref, other kind: a separate entry.
    expect((await chargeCredits(t.db, { teamId: team, kind: 'lockdown_miss', refId: ref, credits: 1 })).balance).toBe(91);
    // Zero costs record nothing.
    expect((await chargeCredits(t.db, { teamId: team, kind: 'search', refId: newId(), credits: 0 })).applied).toBe(false);
    const rows = await t.db.query<{ n: number; s: number }>('select count(*)::int as n, sum(delta)::bigint as s from credit_ledger where team_id = $1', [team]);
    expect(rows[0].n).toBe(3);
    expect(Number(rows[0].s)).toBe(-9);
  });

  test('grants, set and charges below zero', async () => {
    const team = await createTeam(t.db, 'grants', 10, 2);
    expect(await grantCredits(t.db, team, 15)).toBe(25);
    expect(await setCredits(t.db, team, 3)).toBe(3);
    expect((await chargeCredits(t.db, { teamId: team, kind: 'scrape', refId: newId(), credits: 5 })).balance).toBe(-2);
    expect(await grantCredits(t.db, 'no-such-team', 5)).toBeUndefined();
    expect((await rejectionOf(chargeCredits(t.db, { teamId: team, kind: 'scrape', refId: newId(), credits: -1 }))).message).toContain('invalid amount');
  });

  test('feedback refunds: once per search job, within the daily cap', async () => {
    const team = await createTeam(t.db, 'feedback', 10, 2);
    const job = newId();
    const first = await refundSearchFeedback(t.db, { teamId: team, searchJobId: job, dailyCap: 2 });
    expect(first).toEqual({ creditsRefunded: 1, dailyCapReached: false, creditsRefundedToday: 1, dailyRefundCap: 2 });
    const repeat = await refundSearchFeedback(t.db, { teamId: team, searchJobId: job, dailyCap: 2 });
    expect(repeat.creditsRefunded).toBe(0);
    expect((await refundSearchFeedback(t.db, { teamId: team, searchJobId: newId(), dailyCap: 2 })).creditsRefunded).toBe(1);
    const capped = await refundSearchFeedback(t.db, { teamId: team, searchJobId: newId(), dailyCap: 2 });
    expect(capped).toEqual({ creditsRefunded: 0, dailyCapReached: true, creditsRefundedToday: 2, dailyRefundCap: 2 });
    expect(await teamBalance(t.db, team)).toBe(12);
  });

  test('usage figures and monthly history by key', async () => {
    const team = await createTeam(t.db, 'usage', 1000, 4);
    const k1 = await createKey(t.db, team, { name: 'one' });
    const k2 = await createKey(t.db, team, { name: 'two' });
    await chargeCredits(t.db, { teamId: team, apiKeyId: k1.id, kind: 'scrape', refId: newId(), credits: 3 });
    await chargeCredits(t.db, { teamId: team, apiKeyId: k2.id, kind: 'search', refId: newId(), credits: 4, tokens: 120 });
    await chargeCredits(t.db, { teamId: team, kind: 'scrape', refId: newId(), credits: 1 });
    // An entry of last year counts in its own month only.
    await t.db.query(
      "insert into credit_ledger (id, team_id, api_key_id, kind, ref_id, delta, created_at) values ($1, $2, $3, 'scrape', $4, -10, now() - interval '400 days')",
      [newId(), team, k1.id, newId()],
    );
    const usage = await creditUsage(t.db, team);
    expect(usage.remainingCredits).toBe(992);
    expect(usage.planCredits).toBe(1000);
    expect(new Date(usage.billingPeriodStart).getUTCDate()).toBe(1);
    expect(new Date(usage.billingPeriodEnd).getTime()).toBeGreaterThan(Date.now());
    const tokens = await tokenUsage(t.db, team);
    expect(tokens.planTokens - tokens.remainingTokens).toBe(120);

    const months = await usageHistory(t.db, team, 'credits', false);
    expect(months.length).toBe(2);
    expect(months[0].total).toBe(8);
    expect(months[0].apiKey).toBeNull();
    expect(months[1].total).toBe(10);
    expect(new Date(months[0].startDate).getTime()).toBeGreaterThan(new Date(months[1].startDate).getTime());

    const byKey = await usageHistory(t.db, team, 'credits', true);
    const current = byKey.filter((p) => p.startDate === months[0].startDate);
    expect(current.map((p) => [p.apiKey, p.total]).sort()).toEqual(
      [[`${k1.key.slice(0, 8)}...`, 3], [`${k2.key.slice(0, 8)}...`, 4], [null, 1]].sort() as any,
    );
    const tokenMonths = await usageHistory(t.db, team, 'tokens', false);
    expect(tokenMonths[0].total).toBe(120);
  });
});
