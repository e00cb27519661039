import { IsNotEmpty, IsString } from 'class-validator';

/** `POST /orgs/{org}/rename`. */
export class RenameOrgOption {
  /** The new name; it may not be in use by another user or organization. */
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  new_name!: string;
}
