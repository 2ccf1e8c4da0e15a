/**
 * Monitor endpoints (compat.md §15; key restriction group `monitor`): create, list, get, update,
 * delete, run now, and the checks of a monitor with their pages (paged with an absolute `next`). Every
 * answer is `{success: true, data}`. The work is in core/monitor; these handlers validate and admit.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { admit, checkRestrictions, type AdmitSpec } from '../guard.ts';
import { publicBaseUrl } from '../base-url.ts';
import { scrapeOptionsSchema } from '../models/scrape.ts';
import { createMonitorModel, updateMonitorModel } from '../models/monitor.ts';
import { errorResponses } from '../models/common.ts';
import type { Clock } from '../../monitor/clock.ts';
import { checkTargets, createMonitor, deleteMonitor, monitorForTeam, newMonitorId, runMonitorNow, updateMonitor, type MonitorInput } from '../../monitor/service.ts';
import { targetFormats } from '../../monitor/targets.ts';
import { checkView, getCheck, listChecks, listMonitors, listPages, monitorView, pageView, type PageStatus } from '../../monitor/store.ts';

const Params = Type.Object({ id: Type.String() });
const CheckParams = Type.Object({ id: Type.String(), checkId: Type.String() });
const PAGE_STATUSES = ['same', 'new', 'changed', 'removed', 'error'];
const tags = ['Monitor'];

/** `limit`/`offset` (or `skip`) of a list query. @throws TrawlError BAD_REQUEST */
function paging(query: Record<string, string | undefined>, maxLimit: number, defaultLimit: number): { limit: number; offset: number } {
  const int = (name: string, min: number, max: number) => {
    const v = query[name];
    if (v === undefined || v === '') return undefined;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new TrawlError('BAD_REQUEST', `${name} must be an integer from ${min} to ${max}`);
    return Number(v);
  };
  return { limit: int('limit', 1, maxLimit) ?? defaultLimit, offset: int('offset', 0, Number.MAX_SAFE_INTEGER) ?? int('skip', 0, Number.MAX_SAFE_INTEGER) ?? 0 };
}

/** Warnings for accepted fields this server stores but cannot act on. */
function warningsOf(input: MonitorInput): { warning?: string } {
  const w: string[] = [];
  if (input.notification) w.push('notification is stored, but this server sends no e-mail; use webhook for notifications.');
  if (input.goal) w.push('goal is stored, but this server has no change judge; every change is reported.');
  return w.length ? { warning: w.join(' ') } : {};
}

/** Monitor routes. @param clock the scheduler clock (first runs are computed from it) */
export function monitorRoutes(services: Services, clock: Clock) {
  const options = scrapeOptionsSchema([...services.formats.values()]);
  const base = '/v2/monitor';
  const admitMonitor = (request: Request, extra: Partial<AdmitSpec> = {}) => admit(services, request, { group: 'monitor', credits: 0, ...extra });
  return new Elysia({ name: 'routes/monitor' })
    .post(
      base,
      async ({ body, request }) => {
        const input = body as MonitorInput;
        const principal = await admitMonitor(request);
        const id = newMonitorId();
        const targets = await checkTargets(services, input.targets, id);
        checkRestrictions(principal, { group: 'monitor', formats: targetFormats(targets.resolved) });
        const row = await createMonitor(services, principal, input, id, targets.stored, clock);
        return { success: true as const, data: monitorView(row), ...warningsOf(input) };
      },
      { body: createMonitorModel(options), response: { 409: errorResponses[400], ...errorResponses }, detail: { summary: 'Create a monitor', tags } },
    )
    .get(
      base,
      async ({ request, query }) => {
        const principal = await admitMonitor(request);
        const { limit, offset } = paging(query as Record<string, string>, 100, 50);
        return { success: true as const, data: (await listMonitors(services.db, principal.teamId, limit, offset)).map(monitorView) };
      },
      { detail: { summary: 'List monitors', tags } },
    )
    .get(
      `${base}/:id`,
      async ({ params, request }) => {
        const principal = await admitMonitor(request);
        return { success: true as const, data: monitorView(await monitorForTeam(services, params.id, principal.teamId)) };
      },
      { params: Params, detail: { summary: 'Get a monitor', tags } },
    )
    .patch(
      `${base}/:id`,
      async ({ params, body, request }) => {
        const input = body as MonitorInput;
        const principal = await admitMonitor(request, { status: false });
        const m = await monitorForTeam(services, params.id, principal.teamId);
        let stored: Record<string, any>[] | undefined;
        if (input.targets !== undefined) {
          const t = await checkTargets(services, input.targets, m.id);
          checkRestrictions(principal, { group: 'monitor', formats: targetFormats(t.resolved) });
          stored = t.stored;
        }
        return { success: true as const, data: monitorView(await updateMonitor(services, m, input, stored, clock)), ...warningsOf(input) };
      },
      { params: Params, body: updateMonitorModel(options), response: { 409: errorResponses[400], ...errorResponses }, detail: { summary: 'Update, pause or resume a monitor', tags } },
    )
    .delete(
      `${base}/:id`,
      async ({ params, request }) => {
        const principal = await admitMonitor(request);
        await deleteMonitor(services, await monitorForTeam(services, params.id, principal.teamId));
        return { success: true as const, data: { id: params.id.toLowerCase(), deleted: true } };
      },
      { params: Params, detail: { summary: 'Delete a monitor and its checks', tags } },
    )
    .post(
      `${base}/:id/run`,
      async ({ params, request }) => {
        const principal = await admitMonitor(request, { credits: 1 });
        const m = await monitorForTeam(services, params.id, principal.teamId);
        return { success: true as const, data: checkView(await runMonitorNow(services, m, clock)) };
      },
      { params: Params, response: { 409: errorResponses[400], ...errorResponses }, detail: { summary: 'Run a check now (409 when paused or running)', tags } },
    )
    .get(
      `${base}/:id/checks`,
      async ({ params, request, query }) => {
        const principal = await admitMonitor(request);
        const m = await monitorForTeam(services, params.id, principal.teamId);
        const { limit, offset } = paging(query as Record<string, string>, 100, 50);
        return { success: true as const, data: (await listChecks(services.db, m.id, limit, offset)).map(checkView) };
      },
      { params: Params, detail: { summary: 'List the checks of a monitor', tags } },
    )
    .get(
      `${base}/:id/checks/:checkId`,
      async ({ params, request, query }) => {
        const principal = await admitMonitor(request);
        const m = await monitorForTeam(services, params.id, principal.teamId);
        const check = await getCheck(services.db, params.checkId.toLowerCase());
        if (!check || check.monitor_id !== m.id) throw new TrawlError('NOT_FOUND', 'Check not found');
        const q = query as Record<string, string>;
        const { limit, offset } = paging(q, 1000, 100);
        if (q.status !== undefined && !PAGE_STATUSES.includes(q.status)) throw new TrawlError('BAD_REQUEST', `status must be one of ${PAGE_STATUSES.join(', ')}`);
        const rows = await listPages(services.db, check.id, offset, limit + 1, q.status as PageStatus | undefined);
        const more = rows.length > limit;
        const nextQuery = new URLSearchParams({ skip: String(offset + limit), limit: String(limit), ...(q.status ? { status: q.status } : {}) });
        const next = more ? `${publicBaseUrl(services.config, request)}${base}/${m.id}/checks/${check.id}?${nextQuery}` : null;
        return { success: true as const, data: { ...checkView(check), pages: rows.slice(0, limit).map(pageView), next }, next };
      },
      { params: CheckParams, detail: { summary: 'A check with its pages (paged with next)', tags } },
    );
}
