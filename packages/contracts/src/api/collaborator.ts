import type { User } from './user.js';

/** Gitea's `RepoCollaboratorPermission`: a user's access mode name in one repository. */
export class RepoCollaboratorPermission {
  /** `none`, `read`, `write`, `admin` or `owner`. */
  permission!: string;
  role_name!: string;
  user!: User;
}
