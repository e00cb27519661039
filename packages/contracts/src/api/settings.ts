/** Gitea's `GeneralAPISettings` (`GET /settings/api`). */
export class GeneralAPISettings {
  max_response_items!: number;
  default_paging_num!: number;
  default_git_trees_per_page!: number;
  default_max_blob_size!: number;
  default_max_response_size!: number;
}

/** Gitea's `GeneralAttachmentSettings` (`GET /settings/attachment`). */
export class GeneralAttachmentSettings {
  enabled!: boolean;
  allowed_types!: string;
  max_size!: number;
  max_files!: number;
}

/** Gitea's `GeneralRepoSettings` (`GET /settings/repository`). */
export class GeneralRepoSettings {
  mirrors_disabled!: boolean;
  http_git_disabled!: boolean;
  migrations_disabled!: boolean;
  stars_disabled!: boolean;
  time_tracking_disabled!: boolean;
  lfs_disabled!: boolean;
}

/** Gitea's `GeneralUISettings` (`GET /settings/ui`). */
export class GeneralUISettings {
  default_theme!: string;
  allowed_reactions!: string[];
  custom_emojis!: string[];
}
