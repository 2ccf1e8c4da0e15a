/** The webhook delivery dependencies of a process, from its services. */
import type { Services } from '../services.ts';
import type { DeliveryDeps } from '../webhooks/deliver.ts';

export function webhookDeps(services: Pick<Services, 'db' | 'log' | 'config'>): DeliveryDeps {
  return {
    db: services.db,
    log: services.log.child({ component: 'webhooks' }),
    secret: services.config.webhookSecret,
    targets: services.config.targets,
  };
}
