import { IsNotEmpty, IsString } from 'class-validator';

/** `POST /repos/{owner}/{repo}/issues/{index}/comments`. */
export class CreateIssueCommentOption {
  @IsNotEmpty({ message: 'Required' })
  @IsString()
  body!: string;
}
