import { Module } from '@nestjs/common';
import { DirectoryClient, PlatformConfig, PlatformModule, SecretBox, loadSecretKey } from '@gitforge/platform';
import { ActionsServiceConfig } from './actions.config.js';
import { ActionsController, ActionsCronController, RunnerProtocolController } from './actions.controller.js';
import { ActionsCronService } from './cron/actions-cron.service.js';
import { ActionsServiceEntities, ActionsServiceMigrations } from './entities.js';
import { RunnersService } from './runners/runners.service.js';
import { PushTriggerConsumer } from './runs/push-trigger.consumer.js';
import { RunEngine } from './runs/run-engine.service.js';
import { RunsApiService } from './runs/runs-api.service.js';
import { WorkflowsService } from './runs/workflows.service.js';
import { SchedulesService } from './runs/schedules.service.js';
import { ScopeService } from './scope.service.js';
import { TasksService } from './tasks/tasks.service.js';
import { VariablesService } from './variables/variables.service.js';

/** Gitea Actions: runners and the runner protocol, workflow runs from pushes and dispatches, variables and secrets. */
@Module({
  imports: [
    PlatformModule.forService({
      service: 'actions',
      config: ActionsServiceConfig,
      entities: ActionsServiceEntities,
      migrations: ActionsServiceMigrations,
    }),
  ],
  controllers: [ActionsController, RunnerProtocolController, ActionsCronController],
  providers: [
    DirectoryClient,
    ScopeService,
    RunnersService,
    RunEngine,
    RunsApiService,
    WorkflowsService,
    SchedulesService,
    TasksService,
    VariablesService,
    ActionsCronService,
    PushTriggerConsumer,
    { provide: SecretBox, inject: [PlatformConfig], useFactory: (config: PlatformConfig) => new SecretBox(loadSecretKey(config)) },
  ],
})
export class ActionsServiceModule {}
