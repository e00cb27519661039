import { ArrayMaxSize, IsArray, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** `POST /repos/{owner}/{repo}/transfer` (Gitea's TransferRepoOption). */
export class TransferRepoOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(255)
  new_owner!: string;

  /** Teams of the new owner (an organization) that get the repository. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsInt({ each: true })
  team_ids?: number[];
}
