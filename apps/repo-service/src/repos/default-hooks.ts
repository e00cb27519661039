import { HookPatterns, LabelPatterns } from '@gitforge/contracts';
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

/**
 * Gives a new repository the labels of the template its creator named (`issue_labels`), before
 * the creation is answered, as Gitea's InitializeLabels does, so `GET …/labels` right after
 * creation lists them. issue-service owns labels, so this is a call after the commit (a label
 * written before it could outlive a rolled-back create and land on the next repository given
 * that id); if it fails the repository stands without them, and the failure is logged.
 */
export async function initializeLabels(rpc: RpcClient, repoId: number, template: string): Promise<void> {
  try {
    await rpc.call<number, Record<string, string>, { repoId: number; template: string }>(LabelPatterns.initializeForRepo, { actor: null, body: { repoId, template } });
  } catch (err) {
    log.error({ repoId, template, err }, 'could not give a new repository the labels of its template');
  }
}
