import { Injectable } from '@nestjs/common';
import { LessThan } from 'typeorm';
import { createLogger, Database } from '@gitforge/platform';
import { NoticeType, SystemNoticeEntity } from './system-notice.entity.js';

const log = createLogger('notices');

/** System notices (Gitea's CreateNotice / DeleteOldSystemNotices): a row for administrators and a log line. */
@Injectable()
export class NoticesService {
  constructor(private readonly db: Database) {}

  async create(type: NoticeType, description: string): Promise<void> {
    log.warn({ noticeType: NoticeType[type] }, description);
    await this.db.dataSource
      .getRepository(SystemNoticeEntity)
      .insert({ type, description, createdAt: new Date() });
  }

  /** Notices created before `before`; answers how many went. */
  async deleteOlderThan(before: Date): Promise<number> {
    const r = await this.db.dataSource
      .getRepository(SystemNoticeEntity)
      .delete({ createdAt: LessThan(before) });
    return r.affected ?? 0;
  }

  /** The newest notices first (for operators and tests; Gitea shows them on its admin pages only). */
  latest(limit: number): Promise<SystemNoticeEntity[]> {
    return this.db.dataSource.getRepository(SystemNoticeEntity).find({ order: { id: 'DESC' }, take: limit });
  }
}
