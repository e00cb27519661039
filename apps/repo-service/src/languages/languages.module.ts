import { Module } from '@nestjs/common';
import { RepoGitModule } from '../git/repo-git.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { LanguageStatsReader } from './language-stats.reader.js';
import { LanguagesController } from './languages.controller.js';
import { LanguagesService } from './languages.service.js';

/** Language statistics of repositories (`/repos/{owner}/{repo}/languages`). */
@Module({
  imports: [ReposModule, RepoGitModule],
  controllers: [LanguagesController],
  providers: [LanguageStatsReader, LanguagesService],
})
export class LanguagesModule {}
