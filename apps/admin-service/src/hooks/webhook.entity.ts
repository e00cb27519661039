import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TimestampColumn } from '@gitforge/platform';
import type { HookKind, HookType } from '@gitforge/contracts';

/**
 * A webhook: attached to a repository, an organization or user (owner), or to the site
 * (`system` hooks fire for every repository, `default` hooks are copied to new repositories).
 */
@Entity({ name: 'webhook' })
export class WebhookEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 16 })
  kind!: HookKind;

  /** 0 unless kind is `repository`. */
  @Column({ type: 'integer', default: 0 })
  repoId!: number;

  /** 0 unless kind is `organization` or `user`. */
  @Column({ type: 'integer', default: 0 })
  ownerId!: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  type!: HookType;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'varchar', length: 10, default: 'POST' })
  httpMethod!: string;

  @Column({ type: 'varchar', length: 10 })
  contentType!: 'json' | 'form';

  /** Sealed with SecretBox (see HookSecrets); '' when none. */
  @Column({ type: 'text', default: '' })
  secret!: string;

  /** HookEventSettings as JSON. */
  @Column({ type: 'text' })
  events!: string;

  @Column({ type: 'text', default: '' })
  branchFilter!: string;

  @Column({ type: 'boolean', default: false })
  isActive!: boolean;

  /** Type-specific settings (slack channel, username, icon, colour) as JSON. */
  @Column({ type: 'text', default: '{}' })
  meta!: string;

  /** Sealed like the secret; '' when none. */
  @Column({ type: 'text', default: '' })
  authorizationHeader!: string;

  /** Whether `secret` and `authorizationHeader` are sealed: rows written before sealing hold them in clear until admin-service seals them at start. */
  @Column({ type: 'boolean', default: false })
  secretsSealed!: boolean;

  /** For a repository hook copied from a default hook: that hook's id (one copy per repository). */
  @Column({ type: 'integer', nullable: true })
  defaultSourceId!: number | null;

  @TimestampColumn()
  createdAt!: Date;

  @TimestampColumn()
  updatedAt!: Date;
}
