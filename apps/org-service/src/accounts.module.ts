import { Module } from '@nestjs/common';
import { AuthController } from './auth/auth.controller.js';
import { AuthService } from './auth/auth.service.js';
import { OrgsController } from './orgs/orgs.controller.js';
import { OrgsRepository } from './orgs/orgs.repository.js';
import { OrgsService } from './orgs/orgs.service.js';
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

/** Users, organizations, credentials: they answer "who is this and what may they see" together. */
@Module({
  controllers: [UsersController, TokensController, AuthController, OrgsController, TeamFactsController],
  providers: [
    UsersRepository,
    UsersService,
    AdminBootstrap,
    TokensRepository,
    TokensService,
    AuthService,
    OrgsRepository,
    OrgsService,
    TeamFactsRepository,
    TeamFactsService,
  ],
})
export class AccountsModule {}
