import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A user granted access to one repository (read, write or admin). */
@Entity({ name: 'collaboration' })
export class CollaborationEntity {
  @PrimaryColumn({ type: 'integer' })
  repoId!: number;

  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  /** AccessMode: 1 read, 2 write, 3 admin. */
  @Column({ type: 'integer' })
  mode!: number;
}
