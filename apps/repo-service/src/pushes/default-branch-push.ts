import { EventNames, type EventEnvelope } from '@gitforge/contracts';
import type { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';

/**
 * The repository whose default branch a `repo.pushed` event moved, for the facts kept about the
 * default branch (languages, licenses); null for any other event, another ref, or a repository gone.
 */
export async function defaultBranchPushed(e: EventEnvelope, repos: ReposRepository): Promise<RepositoryEntity | null> {
  if (e.name !== EventNames.repoPushed || e.repoId === null) return null;
  const { ref } = e.payload as EventEnvelope<'repo.pushed'>['payload'];
  const repo = await repos.findById(e.repoId);
  return repo && ref === `refs/heads/${repo.defaultBranch}` ? repo : null;
}
