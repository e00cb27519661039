import { Module } from '@nestjs/common';
import { ProtectionsModule } from '../protections/protections.module.js';
import { PushesModule } from '../pushes/pushes.module.js';
import { ReleasesModule } from '../releases/releases.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { GitAccess } from './git-access.js';
import { GitHttpServer } from './git-http.server.js';
import { PushHooks } from './push-hooks.js';
import { SmartHttpHandler } from './smart-http.handler.js';

/** Clone, fetch and push over smart HTTP, behind the gateway (the listener also carries release assets and archives). */
@Module({
  imports: [ReposModule, ProtectionsModule, PushesModule, ReleasesModule],
  providers: [GitAccess, PushHooks, SmartHttpHandler, GitHttpServer],
})
export class SmartHttpModule {}
