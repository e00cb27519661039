import { Injectable } from '@nestjs/common';
import { invalid, type RepoAccess, idFrom } from '@gitforge/contracts';
import type { LabelEntity } from './label.entity.js';
import { LabelsRepository } from './labels.repository.js';

/**
 * Labels named in a request (ids, or names of the repository's and its organization's labels),
 * the one way every route that sets an issue's labels reads them. An id or a name that names no
 * label the repository may use is dropped, as Gitea drops them (GetLabelsByIDs,
 * GetLabelIDsInRepoByNames and NewIssueWithIndex's "silently drop invalid labels").
 */
@Injectable()
export class LabelResolver {
  constructor(private readonly labels: LabelsRepository) {}

  /**
   * Not ids and names mixed (400), nothing else (400). In id order, the order Gitea reads them
   * in, so of several exclusive labels of one scope the one with the highest id stays.
   */
  async resolve(repo: RepoAccess, items: Array<number | string> | undefined): Promise<LabelEntity[]> {
    const ids: number[] = [];
    const names: string[] = [];
    for (const item of items ?? []) {
      if (typeof item === 'number' && Number.isFinite(item)) ids.push(Math.trunc(item));
      else if (typeof item === 'string') names.push(item);
      else throw invalid('a label must be an integer or a string');
    }
    if (ids.length > 0 && names.length > 0) throw invalid('labels should be an array of strings or integers');
    // An id no row can have names no label (and would not fit the column it is compared with).
    const possible = ids.filter((id) => idFrom(id) !== 0);
    const orgIds = repo.ownerKind === 'organization' ? [repo.ownerId] : [];
    const usable = (l: LabelEntity): boolean => l.repoId === repo.id || orgIds.includes(l.orgId);
    const found = (await this.labels.findByIds([...possible, ...(await this.labels.idsByNames([repo.id], orgIds, names))])).filter(usable);
    return found.sort((a, b) => a.id - b.id);
  }
}
