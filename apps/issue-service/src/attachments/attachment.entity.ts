import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, TimestampColumn } from '@gitforge/platform';

/**
 * A file attached to an issue (comment_id 0), to one of its comments, or (later) to a release
 * (Gitea's attachment table). The bytes live in the BlobStore under {@link attachmentBlobKey}.
 */
@Entity({ name: 'attachment' })
@Index('uq_attachment_uuid', ['uuid'], { unique: true })
export class AttachmentEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 40 })
  uuid!: string;

  @Column({ type: 'integer' })
  repoId!: number;

  /** 0: not an issue's (a release's). */
  @Column({ type: 'integer', default: 0 })
  issueId!: number;

  /** 0: the issue's own, not a comment's. */
  @Column({ type: 'integer', default: 0 })
  commentId!: number;

  @Column({ type: 'integer', default: 0 })
  releaseId!: number;

  @Column({ type: 'integer' })
  uploaderId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @BigIntColumn()
  size!: number;

  @BigIntColumn({ default: 0 })
  downloadCount!: number;

  @TimestampColumn()
  createdAt!: Date;
}

/**
 * Where an attachment's bytes are: by its uuid, spread over two levels of directories as Gitea
 * does (`attachments/a/b/ab…`). Not content-addressed: each row owns its file, so deleting the row
 * deletes the file without counting references across issues, comments, releases and packages,
 * and the key is known before the first byte arrives.
 */
export function attachmentBlobKey(uuid: string): string {
  return `attachments/${uuid[0]}/${uuid[1]}/${uuid}`;
}
