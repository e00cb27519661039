import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** Gitea's notice types. */
export enum NoticeType {
  repository = 1,
  task = 2,
}

/** Gitea's `notice`: kept for administrators (not in the API, as in Gitea) and written to the log too. */
@Entity({ name: 'system_notice' })
export class SystemNoticeEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  type!: NoticeType;

  @Column({ type: 'text' })
  description!: string;

  @TimestampColumn()
  createdAt!: Date;
}
