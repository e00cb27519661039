import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A badge of the site's catalogue (Gitea's `badge`), found by its unique slug. */
@Entity({ name: 'badge' })
export class BadgeEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  slug!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'text', default: '' })
  imageUrl!: string;
}
