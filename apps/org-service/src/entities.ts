import { AccessTokenEntity } from './tokens/access-token.entity.js';
import { BadgeEntity } from './badges/badge.entity.js';
import { UserBadgeEntity } from './badges/user-badge.entity.js';
import { Badges1763800000160 } from './migrations/1763800000160-badges.js';
import { PublicKeyEntity } from './keys/public-key.entity.js';
import { PublicKeys1763800000140 } from './migrations/1763800000140-public-keys.js';
import { EmailAddressEntity } from './emails/email-address.entity.js';
import { FollowEntity } from './follows/follow.entity.js';
import { OrgUserEntity, TeamEntity, TeamRepoEntity, TeamUserEntity } from './orgs/org.entities.js';
import { UserEntity } from './users/user.entity.js';
import { UserRedirectEntity } from './users/user-redirect.entity.js';
import { Accounts1763800000100 } from './migrations/1763800000100-accounts.js';
import { People1763800000110 } from './migrations/1763800000110-people.js';
import { UserRedirects1763800000150 } from './migrations/1763800000150-user-redirects.js';
import { StarCountVersion1763800000130 } from './migrations/1763800000130-star-count-version.js';
import { LimitedOwnerTeams1763800000170 } from './migrations/1763800000170-limited-owner-teams.js';

export const OrgServiceEntities = [
  UserEntity,
  AccessTokenEntity,
  OrgUserEntity,
  TeamEntity,
  TeamUserEntity,
  TeamRepoEntity,
  EmailAddressEntity,
  FollowEntity,
  UserRedirectEntity,
  PublicKeyEntity,
  BadgeEntity,
  UserBadgeEntity,
];
export const OrgServiceMigrations = [
  Accounts1763800000100,
  People1763800000110,
  UserRedirects1763800000150,
  StarCountVersion1763800000130,
  PublicKeys1763800000140,
  Badges1763800000160,
  LimitedOwnerTeams1763800000170,
];
