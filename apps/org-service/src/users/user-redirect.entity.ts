import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Gitea's user_redirect: an old login (lower case) of a renamed user or organization. */
@Entity({ name: 'user_redirect' })
export class UserRedirectEntity {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  lowerName!: string;

  @Column({ type: 'integer' })
  redirectUserId!: number;
}
