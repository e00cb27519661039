import { IsNotEmpty, IsString } from 'class-validator';

/** `PATCH /repos/{owner}/{repo}/issues/comments/{id}`. */
export class EditIssueCommentOption {
  @IsNotEmpty({ message: 'Required' })
  @IsString()
  body!: string;
}
