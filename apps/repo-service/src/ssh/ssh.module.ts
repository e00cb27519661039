import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { SmartHttpModule } from '../smart-http/smart-http.module.js';
import { GitSshServer } from './git-ssh.server.js';

/** git over SSH (GITFORGE_SSH_PORT), sharing smart HTTP's access checks and push path. */
@Module({
  imports: [GitModule, AccessModule, SmartHttpModule],
  providers: [GitSshServer],
})
export class SshModule {}
