import { AccessTokenEntity } from './tokens/access-token.entity.js';
import { OrgUserEntity, TeamEntity, TeamRepoEntity, TeamUserEntity } from './orgs/org.entities.js';
import { UserEntity } from './users/user.entity.js';
import { Accounts1763800000100 } from './migrations/1763800000100-accounts.js';

export const OrgServiceEntities = [UserEntity, AccessTokenEntity, OrgUserEntity, TeamEntity, TeamUserEntity, TeamRepoEntity];
export const OrgServiceMigrations = [Accounts1763800000100];
