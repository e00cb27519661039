import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { createLogger } from '@gitforge/platform';
import { OrgServiceConfig } from '../org.config.js';
import { UsersService } from './users.service.js';

/** Ensures the administrator named by GITFORGE_ADMIN_USER at every start. */
@Injectable()
export class AdminBootstrap implements OnApplicationBootstrap {
  private readonly log = createLogger('admin-bootstrap');

  constructor(
    private readonly users: UsersService,
    private readonly config: OrgServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { GITFORGE_ADMIN_USER: user, GITFORGE_ADMIN_PASSWORD: password, GITFORGE_ADMIN_EMAIL: email } = this.config;
    if (!user) {
      this.log.warn('GITFORGE_ADMIN_USER is not set: no site administrator is ensured');
      return;
    }
    if (!password) throw new Error('GITFORGE_ADMIN_USER is set without GITFORGE_ADMIN_PASSWORD');
    await this.users.ensureAdmin(user, password, email ?? `${user.toLowerCase()}@localhost`);
    this.log.info({ user }, 'site administrator ensured');
  }
}
