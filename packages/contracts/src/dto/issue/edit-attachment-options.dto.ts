import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `PATCH …/assets/{attachment_id}`: an empty or absent name leaves the name as it is. */
export class EditAttachmentOptions {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}
