import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A user has a badge (Gitea's `user_badge`); the id keeps the order they were given in. */
@Entity({ name: 'user_badge' })
export class UserBadgeEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  badgeId!: number;

  @Column({ type: 'integer' })
  userId!: number;
}
