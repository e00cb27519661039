import { IsOptional, IsString } from 'class-validator';

/**
 * `POST`/`DELETE` of issue and comment reactions. Gitea binds nothing as required: a missing
 * content is the reaction "", refused as not allowed.
 */
export class EditReactionOption {
  @IsOptional()
  @IsString()
  content?: string;
}
