import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One e-mail address of a user; the primary one mirrors `users.email`. Unique across all users. */
@Entity({ name: 'email_address' })
export class EmailAddressEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  uid!: number;

  @Column({ type: 'varchar', length: 255 })
  email!: string;

  @Column({ type: 'varchar', length: 255 })
  lowerEmail!: string;

  /** `verified` on the wire. */
  @Column({ type: 'boolean', default: false })
  isActivated!: boolean;

  @Column({ type: 'boolean', default: false })
  isPrimary!: boolean;
}
