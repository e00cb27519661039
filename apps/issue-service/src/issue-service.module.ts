import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';

@Module({
  imports: [PlatformModule.forService({ service: 'issue' })],
})
export class IssueServiceModule {}
