import { Module } from '@nestjs/common';
import { GitModule } from '../git/git.module.js';
import { Housekeeping } from './housekeeping.js';

/** Repository housekeeping, for the push path and the admin cron alike (kept apart so pushes need nothing else). */
@Module({
  imports: [GitModule],
  providers: [Housekeeping],
  exports: [Housekeeping],
})
export class HousekeepingModule {}
