import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';

/** `DELETE /user/emails`; an empty list deletes nothing (204). */
export class DeleteEmailOption {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  emails?: string[];
}
