import { IsArray, IsString } from 'class-validator';

/** `PUT /repos/{owner}/{repo}/topics`: the whole list (empty clears it). */
export class RepoTopicOptions {
  @IsArray()
  @IsString({ each: true })
  topics!: string[];
}
