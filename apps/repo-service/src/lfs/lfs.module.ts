import { Module } from '@nestjs/common';
import { LfsRepository } from './lfs.repository.js';

/** The LFS tables (which repositories reference which objects, and locks), shared by the LFS listener and the contents API's media route. */
@Module({
  providers: [LfsRepository],
  exports: [LfsRepository],
})
export class LfsModule {}
