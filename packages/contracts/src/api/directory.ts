import type { Team } from './org.js';
import type { User } from './user.js';

/** An account as other services need it (answered by org-service's directory, not on the wire). */
export interface AccountRef {
  id: number;
  login: string;
  kind: 'user' | 'organization';
  isAdmin: boolean;
  isActive: boolean;
  email: string;
  /** The account as the calling actor sees it. */
  user: User;
}

/** A team of an organization, by id and name. */
export interface TeamRef {
  id: number;
  orgId: number;
  name: string;
  /** The team's wire shape without its organization (Gitea's ToTeam without loading it): review requests. */
  team: Team;
}
