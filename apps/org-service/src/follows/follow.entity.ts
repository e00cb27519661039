import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/** `userId` follows `followId`. */
@Entity({ name: 'follow' })
export class FollowEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer' })
  followId!: number;

  @TimestampColumn()
  createdAt!: Date;
}
