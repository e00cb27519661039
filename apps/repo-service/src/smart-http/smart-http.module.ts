import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { DeployKeysModule } from '../keys/deploy-keys.module.js';
import { LfsHttpHandler } from '../lfs/lfs-http.handler.js';
import { LfsModule } from '../lfs/lfs.module.js';
import { PackagesModule } from '../packages/packages.module.js';
import { ProtectionsModule } from '../protections/protections.module.js';
import { PushesModule } from '../pushes/pushes.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { ReleasesModule } from '../releases/releases.module.js';
import { GitAccess } from './git-access.js';
import { GitHttpServer } from './git-http.server.js';
import { PushHooks } from './push-hooks.js';
import { PushSessions } from './push-sessions.js';
import { SmartHttpHandler } from './smart-http.handler.js';

/** Clone, fetch and push over smart HTTP, and Git LFS, behind the gateway (the listener also carries release assets, archives and the package registries). */
@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule, ProtectionsModule, PushesModule, ReleasesModule, PackagesModule, DeployKeysModule, LfsModule],
  providers: [GitAccess, PushHooks, PushSessions, SmartHttpHandler, LfsHttpHandler, GitHttpServer],
  exports: [GitAccess, PushSessions],
})
export class SmartHttpModule {}
