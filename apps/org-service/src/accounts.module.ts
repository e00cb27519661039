import { Module } from '@nestjs/common';
import { AuthController } from './auth/auth.controller.js';
import { AuthService } from './auth/auth.service.js';
import { BadgesController } from './badges/badges.controller.js';
import { BadgesRepository } from './badges/badges.repository.js';
import { BadgesService } from './badges/badges.service.js';
import { EmailsController } from './emails/emails.controller.js';
import { EmailsRepository } from './emails/emails.repository.js';
import { EmailsService } from './emails/emails.service.js';
import { FollowsController } from './follows/follows.controller.js';
import { FollowsRepository } from './follows/follows.repository.js';
import { FollowsService } from './follows/follows.service.js';
import { UserKeysController } from './keys/user-keys.controller.js';
import { UserKeysRepository } from './keys/user-keys.repository.js';
import { UserKeysService } from './keys/user-keys.service.js';
import { MembersController } from './members/members.controller.js';
import { MembersService } from './members/members.service.js';
import { OrgsController } from './orgs/orgs.controller.js';
import { OrgsRepository } from './orgs/orgs.repository.js';
import { OrgsService } from './orgs/orgs.service.js';
import { TeamsController } from './teams/teams.controller.js';
import { TeamsRepository } from './teams/teams.repository.js';
import { TeamsService } from './teams/teams.service.js';
import { TeamFactsController } from './orgs/team-facts.controller.js';
import { TeamFactsRepository } from './orgs/team-facts.repository.js';
import { TeamFactsService } from './orgs/team-facts.service.js';
import { TokensController } from './tokens/tokens.controller.js';
import { TokensRepository } from './tokens/tokens.repository.js';
import { TokensService } from './tokens/tokens.service.js';
import { AdminBootstrap } from './users/admin-bootstrap.js';
import { UsersController } from './users/users.controller.js';
import { UsersRepository } from './users/users.repository.js';
import { UsersService } from './users/users.service.js';

/**
 * Users, organizations, teams and credentials: they answer "who is this and what may they see"
 * together, so they share one module (and one database).
 */
@Module({
  controllers: [
    UsersController,
    TokensController,
    AuthController,
    OrgsController,
    EmailsController,
    FollowsController,
    MembersController,
    TeamsController,
    TeamFactsController,
    UserKeysController,
    BadgesController,
  ],
  providers: [
    UsersRepository,
    UsersService,
    AdminBootstrap,
    TokensRepository,
    TokensService,
    AuthService,
    OrgsRepository,
    OrgsService,
    EmailsRepository,
    EmailsService,
    FollowsRepository,
    FollowsService,
    MembersService,
    TeamsRepository,
    TeamsService,
    TeamFactsRepository,
    TeamFactsService,
    UserKeysRepository,
    UserKeysService,
    BadgesRepository,
    BadgesService,
  ],
})
export class AccountsModule {}
