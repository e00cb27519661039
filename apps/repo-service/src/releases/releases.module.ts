import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { ProtectionsModule } from '../protections/protections.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { Archives } from './archives.js';
import { ReleaseHttpHandler } from './release-http.handler.js';
import { ReleasesController } from './releases.controller.js';
import { ReleasesService } from './releases.service.js';

/** Releases, their assets and repository archives; the byte routes ride on the smart HTTP listener. */
@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule, ProtectionsModule, TagsModule],
  controllers: [ReleasesController],
  providers: [ReleasesService, Archives, ReleaseHttpHandler],
  exports: [ReleaseHttpHandler, Archives],
})
export class ReleasesModule {}
