import { isRFC3339, IsInt, IsOptional, IsString, ValidateBy } from 'class-validator';
import { NonZero } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/issues/{index}/times`. */
export class AddTimeOption {
  /** Seconds spent; a negative amount takes time off, zero is Gitea's `[Time]: Required`. */
  @NonZero()
  @IsInt()
  time!: number;

  /** When the time was spent (RFC 3339); absent: now. */
  @IsOptional()
  @ValidateBy({ name: 'Date', validator: { validate: (v: unknown) => typeof v === 'string' && isRFC3339(v) } })
  created?: string;

  /** Who spent it: only repository and site administrators may name someone else. */
  @IsOptional()
  @IsString()
  user_name?: string;
}
