import { AdminActionsController, OrgActionsController, RepoActionsController, UserActionsController } from './api/v1/actions.controller.js';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DirectoryClient, PlatformModule } from '@gitforge/platform';
import { AdminBadgesController } from './api/v1/admin-badges.controller.js';
import { AdminCronController } from './api/v1/admin-cron.controller.js';
import { AdminEmailsController } from './api/v1/admin-emails.controller.js';
import { ActivityFeedsController } from './api/v1/activity-feeds.controller.js';
import { AdminHooksController } from './api/v1/admin-hooks.controller.js';
import { AdminOrgsController } from './api/v1/admin-orgs.controller.js';
import { AdminUsersController } from './api/v1/admin-users.controller.js';
import { AdminUnadoptedController } from './api/v1/admin-unadopted.controller.js';
import { OrgLabelsController, RepoLabelsController, RepoMilestonesController } from './api/v1/labels-milestones.controller.js';
import { AdminUserKeysController, RepoKeysController, UserKeysController, UsersKeysController } from './api/v1/keys.controller.js';
import { MiscController } from './api/v1/misc.controller.js';
import { RepoFilesController } from './api/v1/repo-files.controller.js';
import { SettingsController } from './api/v1/settings.controller.js';
import { OrgReposDeprecatedController } from './api/v1/org-repos-deprecated.controller.js';
import { RepoPinsController } from './api/v1/repo-pins.controller.js';
import { RepoCommitPullController } from './api/v1/repo-commit-pull.controller.js';
import { MarkupController } from './api/v1/markup.controller.js';
import { RepoLanguagesController, RepoLicensesController, TopicSearchController } from './api/v1/repo-languages.controller.js';
import { PackageRegistryController, PackagesController } from './api/v1/packages.controller.js';
import { OrgHooksController } from './api/v1/org-hooks.controller.js';
import { OrgsController } from './api/v1/orgs.controller.js';
import { RepoSearchController } from './api/v1/repo-search.controller.js';
import { StarsWatchesController, UserStarsWatchesController } from './api/v1/stars-watches.controller.js';
import { NotificationsController, RepoNotificationsController } from './api/v1/notifications.controller.js';
import { RepoCollaboratorsController } from './api/v1/repo-collaborators.controller.js';
import { RepoAssigneesController } from './api/v1/repo-assignees.controller.js';
import { RepoBranchProtectionsController, RepoTagProtectionsController } from './api/v1/repo-protections.controller.js';
import { RepoBranchesController, RepoMergeUpstreamController } from './api/v1/repo-branches.controller.js';
import { RepoTagsController } from './api/v1/repo-tags.controller.js';
import { RepoArchiveController, RepoFilesWebController, RepoReleasesController } from './api/v1/repo-releases.controller.js';
import { RepoTopicsController } from './api/v1/repo-topics.controller.js';
import { IssueSearchController, RepoIssuesController } from './api/v1/repo-issues.controller.js';
import { RepoPullsController } from './api/v1/repo-pulls.controller.js';
import { TimesController } from './api/v1/times.controller.js';
import { ProjectsController } from './api/v1/projects.controller.js';
import { RepoIssueCommentsController } from './api/v1/repo-issue-comments.controller.js';
import { RepoPullReviewsController } from './api/v1/repo-pull-reviews.controller.js';
import { AttachmentDownloadsController, RepoCommentAttachmentsController, RepoIssueAttachmentsController } from './api/v1/repo-issue-attachments.controller.js';
import { RepoCommitsController } from './api/v1/repo-commits.controller.js';
import { RepoContentsController } from './api/v1/repo-contents.controller.js';
import { RepoTeamsController } from './api/v1/repo-teams.controller.js';
import { RepositoriesController } from './api/v1/repositories.controller.js';
import { ReposController } from './api/v1/repos.controller.js';
import { RepoTransfersController } from './api/v1/repo-transfers.controller.js';
import { TeamsController } from './api/v1/teams.controller.js';
import { TokenController } from './api/v1/token.controller.js';
import { RepoHooksController } from './api/v1/repo-hooks.controller.js';
import { UserHooksController } from './api/v1/user-hooks.controller.js';
import { UserController } from './api/v1/user.controller.js';
import { UsersController } from './api/v1/users.controller.js';
import { AuthGuard } from './auth/auth.guard.js';
import { RepositoryFirst } from './auth/repository-first.js';
import { Authenticator } from './auth/authenticator.js';
import { GatewayConfig } from './gateway.config.js';
import { LfsProxy } from './git/lfs.proxy.js';
import { SmartHttpProxy } from './git/smart-http.proxy.js';
import { HealthController } from './http/health.controller.js';
import { AttachmentProxy } from './http/attachment-proxy.js';
import { HookRoutes } from './http/hook-routes.js';
import { Paged } from './http/paged.js';

/** The HTTP edge: routes, authentication, no domain logic and no database. */
@Module({
  imports: [PlatformModule.forGateway(GatewayConfig)],
  controllers: [
    HealthController,
    MiscController,
    SettingsController,
    MarkupController,
    OrgReposDeprecatedController,
    RepoPinsController,
    RepoCommitPullController,
    TokenController,
    UserController,
    UsersController,
    AdminUsersController,
    AdminOrgsController,
    OrgsController,
    RepoSearchController,
    ReposController,
    RepoTransfersController,
    RepositoriesController,
    RepoTeamsController,
    AdminEmailsController,
    AdminCronController,
    AdminBadgesController,
    AdminUnadoptedController,
    TeamsController,
    RepoCollaboratorsController,
    RepoAssigneesController,
    RepoBranchProtectionsController,
    RepoTagProtectionsController,
    RepoContentsController,
    RepoBranchesController,
    RepoMergeUpstreamController,
    RepoTagsController,
    RepoTopicsController,
    RepoKeysController,
    UserKeysController,
    UsersKeysController,
    AdminUserKeysController,
    RepoLanguagesController,
    RepoLicensesController,
    RepoFilesController,
    TopicSearchController,
    RepoCommitsController,
    RepoHooksController,
    OrgHooksController,
    UserHooksController,
    StarsWatchesController,
    UserStarsWatchesController,
    NotificationsController,
    RepoNotificationsController,
    AdminHooksController,
    ActivityFeedsController,
    IssueSearchController,
    RepoIssuesController,
    RepoPullsController,
    RepoLabelsController,
    OrgLabelsController,
    RepoMilestonesController,
    TimesController,
    ProjectsController,
    RepoPullReviewsController,
    RepoIssueCommentsController,
    RepoIssueAttachmentsController,
    RepoCommentAttachmentsController,
    AttachmentDownloadsController,
    RepoReleasesController,
    RepoArchiveController,
    RepoFilesWebController,
    PackagesController,
    PackageRegistryController,
    AdminActionsController,
    OrgActionsController,
    UserActionsController,
    RepoActionsController,
  ],
  providers: [
    Authenticator,
    RepositoryFirst,
    DirectoryClient,
    Paged,
    SmartHttpProxy,
    LfsProxy,
    AttachmentProxy,
    HookRoutes,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
})
export class GatewayModule {}
