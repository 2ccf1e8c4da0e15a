/**
 * Route modules of accounts (issue 7) composed into one plugin for the app: the client-IP hook used
 * by keyless rate limits, the team/usage endpoints, the v0 stub, the v1 adapters and the admin
 * commands endpoint.
 */
import { Elysia } from 'elysia';
import type { Services } from '../../services.ts';
import { clientIpPlugin } from '../client-ip.ts';
import { teamRoutes } from './team.ts';
import { v0Routes } from './v0.ts';
import { v1Routes } from './v1.ts';
import { adminRoutes } from './admin.ts';
import { activityRoutes } from './activity.ts';

export function accountRoutes(services: Services) {
  return new Elysia({ name: 'routes/accounts' })
    .use(clientIpPlugin(services.config))
    .use(teamRoutes(services))
    .use(v0Routes(services))
    .use(v1Routes())
    .use(adminRoutes(services))
    .use(activityRoutes(services));
}
