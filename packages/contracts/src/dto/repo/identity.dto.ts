import { IsOptional, IsString, MaxLength } from 'class-validator';

/** A commit author or committer given with a file change. */
export class Identity {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;
}
