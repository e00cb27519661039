import type { INestMicroservice } from '@nestjs/common';
import { ActionsServiceModule } from '@gitforge/actions-service';
import { AdminServiceModule } from '@gitforge/admin-service';
import { startGateway } from '@gitforge/gateway';
import { IssueServiceModule } from '@gitforge/issue-service';
import { OrgServiceModule } from '@gitforge/org-service';
import { createLogger, exitOnSignals, startService, tuneProcessHeap } from '@gitforge/platform';
import { RepoServiceModule } from '@gitforge/repo-service';
import { WebhookWorkerModule } from '@gitforge/webhook-worker';

/**
 * The embedded default: every service and the gateway in one process. With neither
 * DATABASE_URL nor REDIS_URL set, that means SQLite files, the in-process transport and the
 * durable SQLite queue, all under GITFORGE_DATA_DIR. The same modules run as separate
 * processes in the distributed layout.
 */
const log = createLogger('embedded');
const services: INestMicroservice[] = [];
try {
  tuneProcessHeap('embedded');
  services.push(await startService(OrgServiceModule, 'org'));
  services.push(await startService(RepoServiceModule, 'repo'));
  services.push(await startService(IssueServiceModule, 'issue'));
  services.push(await startService(AdminServiceModule, 'admin'));
  services.push(await startService(ActionsServiceModule, 'actions'));
  services.push(await startService(WebhookWorkerModule, 'webhook'));
  const gateway = await startGateway();
  exitOnSignals(async () => {
    await gateway.close();
    for (const service of services.reverse()) await service.close();
  });
  log.info('gitforge is running');
} catch (err) {
  console.error('gitforge failed to start:', err);
  process.exit(1);
}
