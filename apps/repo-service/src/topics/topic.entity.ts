import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** Gitea's `topic`: a topic in use and how many repositories carry it (`GET /topics/search`). */
@Entity({ name: 'topic' })
export class TopicEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  @Column({ type: 'integer', default: 0 })
  repoCount!: number;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
