import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';

/** `POST /user/emails`; an empty list answers Gitea's 422 "Email list empty". */
export class CreateEmailOption {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  emails?: string[];
}
