import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { SubscriptionsController } from './subscriptions.controller.js';
import { SubscriptionsService } from './subscriptions.service.js';

/** Issue subscriptions; exports the check the notifications use. */
@Module({
  imports: [IssuesModule],
  controllers: [SubscriptionsController],
  providers: [SubscriptionsService],
  exports: [SubscriptionsService],
})
export class SubscriptionsModule {}
