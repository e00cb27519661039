import { Injectable } from '@nestjs/common';
import { isUsableOwnerName, isUsableRepoName, notFound, pageOf, requireSiteAdmin, type Actor, type ListOptions, type Page } from '@gitforge/contracts';
import { chunksOf, DirectoryClient } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { GitService } from '../git/git.service.js';
import { ReposRepository } from '../records/repos.repository.js';
import { unadoptedFilter } from './unadopted-filter.js';

/**
 * `/admin/unadopted` (Gitea's ListUnadoptedRepositories and DeleteUnadoptedRepository): the
 * repositories an operator dropped into the repositories root in Gitea's layout,
 * `<owner>/<name>.git`, whose owner exists and has no repository of that name. Adopting one is
 * ReposService's (it is a creation). Site administrators only.
 */
@Injectable()
export class UnadoptedService {
  constructor(
    private readonly git: GitService,
    private readonly repos: ReposRepository,
    private readonly access: RepoAccessService,
    private readonly directory: DirectoryClient,
  ) {}

  /**
   * One page of `owner/name`, walking owners and then their repositories in name order as Gitea
   * does, and the total: owner directories of no account are skipped, the owners are looked up in
   * one call per slice, and each owner's names in one read.
   */
  async list(actor: Actor | null, query: string, options: ListOptions): Promise<Page<string>> {
    const a = requireSiteAdmin(actor);
    const filter = unadoptedFilter(query);
    const owners = (await this.git.unadoptedOwners()).filter((o) => filter.owner.test(o));
    const ownerIds = new Map<string, number>();
    for (const names of chunksOf(owners)) {
      for (const account of await this.directory.accountsByNames(a, names)) ownerIds.set(account.login.toLowerCase(), account.id);
    }
    const start = (options.page - 1) * options.limit;
    const items: string[] = [];
    let total = 0;
    for (const owner of owners) {
      const ownerId = ownerIds.get(owner);
      if (ownerId === undefined) continue;
      const names = (await this.git.unadoptedNames(owner)).filter((n) => filter.name.test(n));
      if (names.length === 0) continue;
      const taken = new Set(await this.repos.takenNames(ownerId, names));
      for (const name of names) {
        if (taken.has(name)) continue;
        if (total >= start && items.length < options.limit) items.push(`${owner}/${name}`);
        total++;
      }
    }
    return pageOf(items, total, options);
  }

  /** `DELETE /admin/unadopted/{owner}/{repo}`: 404 when the owner is unknown, a repository of that name exists, or nothing was dropped there. */
  async remove(actor: Actor | null, ownerName: string, name: string): Promise<void> {
    const a = requireSiteAdmin(actor);
    // Checked before any lookup: only such names ever become a path.
    if (!isUsableOwnerName(ownerName) || !isUsableRepoName(name)) throw notFound();
    const owner = await this.access.ownerAccess(a, { name: ownerName });
    if (await this.repos.findByOwnerAndName(owner.owner.id, name)) throw notFound();
    if (!(await this.git.removeUnadopted(owner.owner.login, name))) throw notFound();
  }
}
