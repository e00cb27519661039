import { ApiProperty } from '@nestjs/swagger';
import type { Badge as BadgeShape } from '@gitforge/contracts';

/*
 * Response shapes the OpenAPI document describes, under Gitea's definition names. The contracts
 * classes stay plain (no decorators); each class here implements its contracts twin, so a field
 * added there fails the build until it is described here too.
 */

/** Gitea's `Badge`. */
export class Badge implements BadgeShape {
  @ApiProperty({ type: 'integer', format: 'int64' })
  id!: number;

  @ApiProperty()
  slug!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ description: 'empty when the badge has no image' })
  image_url!: string;
}
