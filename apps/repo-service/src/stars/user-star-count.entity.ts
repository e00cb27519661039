import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A user's number of stars as last counted, and the version that orders what org-service is sent. */
@Entity({ name: 'user_star_count' })
export class UserStarCountEntity {
  @PrimaryColumn({ type: 'integer' })
  userId!: number;

  @Column({ type: 'integer', default: 0 })
  numStars!: number;

  @Column({ type: 'integer', default: 0 })
  version!: number;
}
