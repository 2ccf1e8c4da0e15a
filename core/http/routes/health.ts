/**
 * Liveness and readiness: `/health` answers while the process runs; `/ready` answers 200 only when the
 * database and the queue are reachable (503 otherwise, naming what is down).
 */
import { Elysia, t } from 'elysia';
import type { Services } from '../../services.ts';

export function healthRoutes(services: Services) {
  return new Elysia({ name: 'routes/health' })
    .get('/health', () => ({ status: 'ok' }), {
      detail: { summary: 'Liveness', tags: ['Health'] },
      response: t.Object({ status: t.String() }),
    })
    .get(
      '/ready',
      async ({ set }) => {
        const [database, queue] = await Promise.all([
          services.db.ping().catch(() => false),
          services.queue.ping().catch(() => false),
        ]);
        const ready = database && queue;
        if (!ready) set.status = 503;
        return { status: ready ? 'ready' : 'unavailable', database, queue, queueDriver: services.queue.kind, databaseDriver: services.db.kind };
      },
      { detail: { summary: 'Readiness: database and queue reachable', tags: ['Health'] } },
    );
}
