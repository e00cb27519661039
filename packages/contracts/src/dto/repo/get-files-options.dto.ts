import { IsArray, IsString } from 'class-validator';

/** `POST /repos/{owner}/{repo}/file-contents` (and the JSON of `GET …/file-contents?body=`). */
export class GetFilesOptions {
  /** Paths to read; each answers a Contents entry, or null when nothing is there. */
  @IsArray()
  @IsString({ each: true })
  files!: string[];
}
