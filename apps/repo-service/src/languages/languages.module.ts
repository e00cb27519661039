import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { LanguageStatsReader } from './language-stats.reader.js';
import { LanguagesController } from './languages.controller.js';
import { LanguagesService } from './languages.service.js';

/** Language statistics of repositories (`/repos/{owner}/{repo}/languages`). */
@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule],
  controllers: [LanguagesController],
  providers: [LanguageStatsReader, LanguagesService],
})
export class LanguagesModule {}
