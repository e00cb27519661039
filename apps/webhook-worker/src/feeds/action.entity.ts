import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';

/**
 * A feed entry for one receiving user (Gitea's action table): the actor, the repository's
 * owner, and so on each get a row. Unique on (event, position in the event, receiver), so a
 * replayed event changes nothing.
 */
@Entity({ name: 'action' })
export class ActionEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 64 })
  eventId!: string;

  /** Which of the event's actions this is (an event may yield several). */
  @Column({ type: 'integer', default: 0 })
  eventSeq!: number;

  /** The receiver: whose feed the entry appears in. */
  @Column({ type: 'integer' })
  userId!: number;

  @Column({ type: 'varchar', length: 64 })
  opType!: string;

  @Column({ type: 'integer' })
  actUserId!: number;

  @Column({ type: 'integer' })
  repoId!: number;

  @Column({ type: 'integer', default: 0 })
  commentId!: number;

  /**
   * A comment entry's comment (Gitea's Comment, JSON) as its latest event showed it: Gitea shows
   * the live comment, and the events carry it, so no entry asks issue-service for it.
   */
  @Column({ type: 'text', nullable: true })
  commentJson!: string | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  refName!: string;

  @Column({ type: 'boolean', default: false })
  isPrivate!: boolean;

  @Column({ type: 'text', default: '' })
  content!: string;

  @TimestampColumn()
  createdAt!: Date;
}
