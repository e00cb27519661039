import { IsNotEmpty, IsString } from 'class-validator';

/** `POST /admin/users/{username}/rename`. */
export class RenameUserOption {
  /** The new name; it may not be in use by another user or organization. */
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  new_username!: string;
}
