import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import { IssueLabelEntity } from './issue-label.entity.js';
import { LabelEntity } from './label.entity.js';

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

  findByIds(ids: number[], m?: EntityManager): Promise<LabelEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return (m ?? this.db.manager).find(LabelEntity, { where: { id: In([...new Set(ids)]) } });
  }

  /** Ids of the labels these repositories can use (their own and their organizations') with one of these names. */
  async idsByNames(repoIds: number[], orgIds: number[], names: string[]): Promise<number[]> {
    if (names.length === 0 || repoIds.length === 0) return [];
    const qb = this.db.manager
      .createQueryBuilder(LabelEntity, 'l')
      .select('l.id', 'id')
      .where('l.name IN (:...names)', { names })
      .andWhere(orgIds.length > 0 ? '(l.repo_id IN (:...repoIds) OR l.org_id IN (:...orgIds))' : 'l.repo_id IN (:...repoIds)', { repoIds, orgIds });
    return (await qb.getRawMany<{ id: number }>()).map((r) => Number(r.id));
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
}
