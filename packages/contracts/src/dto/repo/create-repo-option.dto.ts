import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { AlphaDashDot, GitRefName } from '../common/validators.js';
import { MAX_REPO_NAME_LENGTH } from '../../names.js';

/** `POST /user/repos`, `POST /orgs/{org}/repos`. */
export class CreateRepoOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @AlphaDashDot()
  @MaxLength(MAX_REPO_NAME_LENGTH)
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  description?: string;

  @IsOptional()
  @IsBoolean()
  private?: boolean;

  @IsOptional()
  @IsString()
  issue_labels?: string;

  /** Creates an initial commit holding a README. */
  @IsOptional()
  @IsBoolean()
  auto_init?: boolean;

  @IsOptional()
  @IsBoolean()
  template?: boolean;

  @IsOptional()
  @IsString()
  gitignores?: string;

  @IsOptional()
  @IsString()
  license?: string;

  @IsOptional()
  @IsString()
  readme?: string;

  @IsOptional()
  @GitRefName()
  @MaxLength(100)
  default_branch?: string;

  @IsOptional()
  @IsIn(['', 'default', 'collaborator', 'committer', 'collaboratorcommitter'])
  trust_model?: string;

  @IsOptional()
  @IsIn(['', 'sha1', 'sha256'])
  object_format_name?: string;
}
