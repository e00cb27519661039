import { Controller, Get } from '@nestjs/common';
import {
  ALLOWED_REACTIONS,
  AttachmentPatterns,
  DEFAULT_PAGE_LIMIT,
  GIT_TREES_PER_PAGE,
  MAX_BLOB_SIZE,
  MAX_FILES_RESPONSE_BYTES,
  MAX_PAGE_LIMIT,
  type GeneralAPISettings,
  type GeneralAttachmentSettings,
  type GeneralRepoSettings,
  type GeneralUISettings,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';

/** Gitea's `[ui] DEFAULT_THEME` and `CUSTOM_EMOJIS` defaults: gitforge has no web UI of its own to configure. */
const GITEA_DEFAULT_THEME = 'gitea-auto';
const GITEA_CUSTOM_EMOJIS = ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs'];

/**
 * `/settings/*`: what this instance allows, public as in Gitea (clients read them before signing
 * in to size pages and uploads).
 */
@Controller('api/v1/settings')
export class SettingsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('api')
  api(): GeneralAPISettings {
    return {
      max_response_items: MAX_PAGE_LIMIT,
      default_paging_num: DEFAULT_PAGE_LIMIT,
      default_git_trees_per_page: GIT_TREES_PER_PAGE,
      default_max_blob_size: MAX_BLOB_SIZE,
      default_max_response_size: MAX_FILES_RESPONSE_BYTES,
    };
  }

  /** Asked of issue-service, whose configuration sets the limits it enforces on uploads. */
  @Get('attachment')
  attachment(): Promise<GeneralAttachmentSettings> {
    return this.rpc.call<GeneralAttachmentSettings>(AttachmentPatterns.settings, { actor: null });
  }

  /** gitforge has neither pull mirrors nor migrations; git over HTTP, LFS, stars and time tracking are always on. */
  @Get('repository')
  repository(): GeneralRepoSettings {
    return {
      mirrors_disabled: true,
      http_git_disabled: false,
      migrations_disabled: true,
      stars_disabled: false,
      time_tracking_disabled: false,
      lfs_disabled: false,
    };
  }

  @Get('ui')
  ui(): GeneralUISettings {
    return {
      default_theme: GITEA_DEFAULT_THEME,
      allowed_reactions: [...ALLOWED_REACTIONS],
      custom_emojis: GITEA_CUSTOM_EMOJIS,
    };
  }
}
