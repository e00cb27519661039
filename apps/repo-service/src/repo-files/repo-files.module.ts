import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { RepoFilesController } from './repo-files.controller.js';
import { RepoFilesService } from './repo-files.service.js';

/** Repository files read for the API: issue templates and config (`issue_templates`, `issue_config`), `.editorconfig`. */
@Module({
  imports: [GitModule, AccessModule],
  controllers: [RepoFilesController],
  providers: [RepoFilesService],
})
export class RepoFilesModule {}
