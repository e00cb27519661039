import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { TimesController } from './times.controller.js';
import { TimesService } from './times.service.js';

/** Tracked times and stopwatches; the repository lives in IssuesModule, whose issue deletion removes the rows. */
@Module({
  imports: [IssuesModule],
  controllers: [TimesController],
  providers: [TimesService],
})
export class TimesModule {}
