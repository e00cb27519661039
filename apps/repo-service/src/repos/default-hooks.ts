import { HookPatterns } from '@gitforge/contracts';
import { createLogger, type RpcClient } from '@gitforge/platform';

const log = createLogger('default-hooks');

/**
 * Copies the site's default hooks into a new repository before its creation is answered, as
 * Gitea's CreateRepositoryByExample does (CopyDefaultWebhooksToRepo), so `GET …/hooks` right
 * after creation lists them. admin-service owns hooks, so this is a call after the commit, not a
 * write in the creation's transaction; if it fails, the webhook worker's fan-out of repo.created
 * makes the same (idempotent) copy before matching hooks, so nothing is lost, only later.
 */
export async function copyDefaultHooks(rpc: RpcClient, repoId: number): Promise<void> {
  try {
    await rpc.call<number, Record<string, string>, { repoId: number }>(HookPatterns.copyDefaults, { actor: null, body: { repoId } });
  } catch (err) {
    log.warn({ repoId, err }, 'could not copy default hooks now; the webhook worker copies them with repo.created');
  }
}
