import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { NonZero, RFC3339Date } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/issues/{index}/times`. */
export class AddTimeOption {
  /** Seconds spent; a negative amount takes time off, zero is Gitea's `[Time]: Required`. */
  @NonZero()
  @IsInt()
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  time!: number;

  /** When the time was spent (RFC 3339); absent: now. */
  @IsOptional()
  @RFC3339Date()
  created?: string;

  /** Who spent it: only repository and site administrators may name someone else. */
  @IsOptional()
  @IsString()
  user_name?: string;
}
