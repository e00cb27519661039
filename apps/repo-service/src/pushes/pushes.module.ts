import { Module } from '@nestjs/common';
import { ReposModule } from '../repos/repos.module.js';
import { PushesService } from './pushes.service.js';

/** The aftermath of moved refs (row bookkeeping, push/create/delete events), for every way refs move. */
@Module({
  imports: [ReposModule],
  providers: [PushesService],
  exports: [PushesService],
})
export class PushesModule {}
