import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** `POST /repos/{owner}/{repo}/keys`, `POST /user/keys` and `POST /admin/users/{username}/keys`. */
export class CreateKeyOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(255)
  title!: string;

  /** An OpenSSH public key line (or an RFC 4716 block); checked by platform's parseSshPublicKey. */
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(16384)
  key!: string;

  /** Deploy keys only: read-only (the default is false, read and write, as Gitea). */
  @IsOptional()
  @IsBoolean()
  read_only?: boolean;
}
