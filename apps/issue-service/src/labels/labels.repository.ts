import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { ListOptions } from '@gitforge/contracts';
import { chunksOf, Database } from '@gitforge/platform';
import { IssueLabelEntity } from './issue-label.entity.js';
import { LabelEntity } from './label.entity.js';

/** Whose labels: a repository's or an organization's. */
export type LabelOwner = { repoId: number } | { orgId: number };

const ownedBy = (owner: LabelOwner): Pick<LabelEntity, 'repoId' | 'orgId'> =>
  'repoId' in owner ? { repoId: owner.repoId, orgId: 0 } : { repoId: 0, orgId: owner.orgId };

@Injectable()
export class LabelsRepository {
  constructor(private readonly db: Database) {}

  /** The labels of each issue, by name (Gitea sorts an issue's labels by name). */
  async labelsOfIssues(issueIds: number[], m?: EntityManager): Promise<Map<number, LabelEntity[]>> {
    const result = new Map<number, LabelEntity[]>();
    if (issueIds.length === 0) return result;
    const manager = m ?? this.db.manager;
    const links = await manager.find(IssueLabelEntity, { where: { issueId: In(issueIds) } });
    if (links.length === 0) return result;
    const labels = await manager.find(LabelEntity, { where: { id: In([...new Set(links.map((l) => l.labelId))]) } });
    const byId = new Map(labels.map((l) => [l.id, l]));
    for (const link of links) {
      const label = byId.get(link.labelId);
      if (label) result.set(link.issueId, [...(result.get(link.issueId) ?? []), label]);
    }
    for (const list of result.values()) list.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    return result;
  }

  /** The labels of these ids; a list of any length (a query string's, say) is read in slices. */
  async findByIds(ids: number[], m?: EntityManager): Promise<LabelEntity[]> {
    const out: LabelEntity[] = [];
    for (const slice of chunksOf([...new Set(ids)])) out.push(...(await (m ?? this.db.manager).find(LabelEntity, { where: { id: In(slice) } })));
    return out;
  }

  /** Ids of the labels these repositories can use (their own and their organizations') with one of these names (any number of them). */
  async idsByNames(repoIds: number[], orgIds: number[], names: string[]): Promise<number[]> {
    if (names.length === 0 || repoIds.length === 0) return [];
    const out: number[] = [];
    for (const slice of chunksOf([...new Set(names)])) {
      const qb = this.db.manager
        .createQueryBuilder(LabelEntity, 'l')
        .select('l.id', 'id')
        .where('l.name IN (:...names)', { names: slice })
        .andWhere(orgIds.length > 0 ? '(l.repo_id IN (:...repoIds) OR l.org_id IN (:...orgIds))' : 'l.repo_id IN (:...repoIds)', { repoIds, orgIds });
      for (const r of await qb.getRawMany<{ id: number }>()) out.push(Number(r.id));
    }
    return out;
  }

  async addToIssue(m: EntityManager, issueId: number, labelIds: number[]): Promise<void> {
    if (labelIds.length === 0) return;
    await m
      .createQueryBuilder()
      .insert()
      .into(IssueLabelEntity)
      .values(labelIds.map((labelId) => ({ issueId, labelId })))
      .orIgnore()
      .execute();
  }

  async removeFromIssue(m: EntityManager, issueId: number, labelIds: number[]): Promise<void> {
    if (labelIds.length > 0) await m.delete(IssueLabelEntity, { issueId, labelId: In(labelIds) });
  }

  /**
   * One page of an owner's labels in Gitea's order (GetLabelsByRepoID/OrgID): by name, or by name
   * descending (`reversealphabetically`), or by how many issues carry them (`leastissues`,
   * `mostissues`); and their total.
   */
  list(owner: LabelOwner, options: ListOptions, sort?: string): Promise<[LabelEntity[], number]> {
    const qb = this.db.manager.createQueryBuilder(LabelEntity, 'l').where(ownedBy(owner));
    if (sort === 'leastissues' || sort === 'mostissues') {
      qb.addSelect('(SELECT COUNT(*) FROM issue_label il WHERE il.label_id = l.id)', 'issue_count').orderBy('issue_count', sort === 'leastissues' ? 'ASC' : 'DESC');
    } else {
      qb.orderBy('l.name', sort === 'reversealphabetically' ? 'DESC' : 'ASC');
    }
    return qb
      .addOrderBy('l.id', 'ASC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getManyAndCount();
  }

  /** An owner's label by id, or by name (the first of that name, as Gitea's GetLabelInRepoByName). */
  async findOwned(owner: LabelOwner, key: { id: number } | { name: string }): Promise<LabelEntity | null> {
    const found = await this.db.manager.find(LabelEntity, { where: { ...ownedBy(owner), ...key }, order: { id: 'ASC' }, take: 1 });
    return found[0] ?? null;
  }

  /** The names an owner's labels have, read inside `m`. */
  async namesOwned(m: EntityManager, owner: LabelOwner): Promise<Set<string>> {
    return new Set((await m.find(LabelEntity, { where: ownedBy(owner), select: { name: true } })).map((l) => l.name));
  }

  insert(m: EntityManager, owner: LabelOwner, label: Partial<LabelEntity>): Promise<LabelEntity> {
    return m.save(LabelEntity, m.create(LabelEntity, { ...label, ...ownedBy(owner) }));
  }

  async update(m: EntityManager, id: number, changes: Partial<LabelEntity>): Promise<void> {
    if (Object.keys(changes).length > 0) await m.update(LabelEntity, { id }, changes);
  }

  /** Deletes the label and takes it off every issue that carries it. */
  async delete(m: EntityManager, id: number): Promise<void> {
    await m.delete(IssueLabelEntity, { labelId: id });
    await m.delete(LabelEntity, { id });
  }

  /** Every label of a repository (their issues' links go with the issues). */
  async deleteOfRepo(m: EntityManager, repoId: number): Promise<void> {
    await m.delete(LabelEntity, { repoId });
  }
}
