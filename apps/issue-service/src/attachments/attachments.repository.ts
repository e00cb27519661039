import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import { AttachmentEntity } from './attachment.entity.js';

@Injectable()
export class AttachmentsRepository {
  constructor(private readonly db: Database) {}

  insert(m: EntityManager, row: Partial<AttachmentEntity>): Promise<AttachmentEntity> {
    return m.save(AttachmentEntity, m.create(AttachmentEntity, row));
  }

  findById(id: number, m?: EntityManager): Promise<AttachmentEntity | null> {
    return this.db.findOneBy(AttachmentEntity, { id }, m);
  }

  findByUuid(uuid: string): Promise<AttachmentEntity | null> {
    return this.db.findOneBy(AttachmentEntity, { uuid });
  }

  /** The issues' own attachments (not their comments'), per issue, oldest first. */
  async ofIssues(issueIds: number[], m?: EntityManager): Promise<Map<number, AttachmentEntity[]>> {
    const result = new Map<number, AttachmentEntity[]>();
    if (issueIds.length === 0) return result;
    const rows = await (m ?? this.db.manager).find(AttachmentEntity, { where: { issueId: In(issueIds), commentId: 0 }, order: { id: 'ASC' } });
    for (const r of rows) result.set(r.issueId, [...(result.get(r.issueId) ?? []), r]);
    return result;
  }

  /** The comments' attachments, per comment, oldest first: one query for a page of comments. */
  async ofComments(commentIds: number[], m?: EntityManager): Promise<Map<number, AttachmentEntity[]>> {
    const result = new Map<number, AttachmentEntity[]>();
    if (commentIds.length === 0) return result;
    const rows = await (m ?? this.db.manager).find(AttachmentEntity, { where: { commentId: In(commentIds) }, order: { id: 'ASC' } });
    for (const r of rows) result.set(r.commentId, [...(result.get(r.commentId) ?? []), r]);
    return result;
  }

  /** One issue's or one comment's attachments, oldest first. */
  inScope(issueId: number, commentId: number): Promise<AttachmentEntity[]> {
    return this.db.manager.find(AttachmentEntity, { where: { issueId, commentId }, order: { id: 'ASC' } });
  }

  async rename(m: EntityManager, id: number, name: string): Promise<void> {
    await m.update(AttachmentEntity, { id }, { name });
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.delete(AttachmentEntity, { id });
  }

  /** Deletes every attachment of an issue and its comments; answers their uuids (their files go after the commit). */
  async deleteOfIssues(m: EntityManager, issueIds: number[]): Promise<string[]> {
    const rows = await m.find(AttachmentEntity, {
      select: { id: true, uuid: true },
      where: { issueId: In(issueIds) },
    });
    if (rows.length > 0) await m.delete(AttachmentEntity, { id: In(rows.map((r) => r.id)) });
    return rows.map((r) => r.uuid);
  }

  /** Deletes every attachment of a repository (those not linked to an issue yet too); answers their uuids. */
  async deleteOfRepo(m: EntityManager, repoId: number): Promise<string[]> {
    const rows = await m.find(AttachmentEntity, { select: { id: true, uuid: true }, where: { repoId } });
    if (rows.length > 0) await m.delete(AttachmentEntity, { repoId });
    return rows.map((r) => r.uuid);
  }

  /** Deletes a comment's attachments; answers their uuids (their files go after the commit). */
  async deleteOfComment(m: EntityManager, commentId: number): Promise<string[]> {
    const rows = await m.find(AttachmentEntity, { select: { id: true, uuid: true }, where: { commentId } });
    if (rows.length > 0) await m.delete(AttachmentEntity, { commentId });
    return rows.map((r) => r.uuid);
  }

  /** One more download; a single UPDATE, so concurrent downloads all count. */
  async countDownload(id: number): Promise<void> {
    await this.db.manager.increment(AttachmentEntity, { id }, 'downloadCount', 1);
  }
}
