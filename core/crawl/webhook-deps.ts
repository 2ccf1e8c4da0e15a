/** The webhook delivery dependencies of a process, from its services. */
import type { Services } from '../services.ts';
import type { DeliveryDeps } from '../webhooks/deliver.ts';
import { teamWebhookSecret } from '../webhooks/team-secret.ts';

export function webhookDeps(services: Pick<Services, 'db' | 'log' | 'config'>): DeliveryDeps {
  return {
    db: services.db,
    log: services.log.child({ component: 'webhooks' }),
    secretFor: (teamId) => teamWebhookSecret(services.db, teamId, services.config.webhookSecret),
    targets: services.config.targets,
  };
}
