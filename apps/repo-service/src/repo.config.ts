import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { PlatformConfig } from '@gitforge/platform';

export class RepoServiceConfig extends PlatformConfig {
  /** The git executable. */
  @IsString()
  GITFORGE_GIT_BIN = 'git';

  /**
   * Interface of repo-service's own HTTP listener for smart HTTP (the gateway streams clones and
   * pushes to it). Only used when the apps run as separate processes; the all-in-one process
   * listens on an ephemeral loopback port instead.
   */
  @IsString()
  GITFORGE_GIT_HTTP_HOST = '0.0.0.0';

  /** Port of that listener (the gateway's GITFORGE_REPO_GIT_URL points at it). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  GITFORGE_GIT_HTTP_PORT = 3100;

  /** Largest smart-HTTP request body (a pushed pack, after gzip decoding); larger requests are cut off. */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  GITFORGE_GIT_MAX_BODY_BYTES = 2 * 1024 * 1024 * 1024;

  /** A clone or push with no bytes moving either way for this long is aborted (git's own keepalives count). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  GITFORGE_GIT_IDLE_TIMEOUT_MS = 120_000;

  /**
   * Largest release asset in MiB (Gitea's `[attachment] MAX_SIZE`, the same variable issue-service
   * reads for issue attachments); larger uploads are 413.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1024 * 1024)
  GITFORGE_ATTACHMENT_MAX_SIZE_MB = 2048;

  get attachmentMaxBytes(): number {
    return this.GITFORGE_ATTACHMENT_MAX_SIZE_MB * 1024 * 1024;
  }

  /** Largest file of a package in MiB (Gitea's `[packages] LIMIT_SIZE_*`); larger uploads are 413 and leave nothing stored. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1024 * 1024)
  GITFORGE_PACKAGES_MAX_FILE_SIZE_MB = 2048;

  /**
   * What all packages of one owner may hold together in MiB (Gitea's `LIMIT_TOTAL_OWNER_SIZE`);
   * an upload past it is 403 and leaves nothing stored. -1: no limit.
   */
  @Type(() => Number)
  @IsInt()
  @Min(-1)
  GITFORGE_PACKAGES_OWNER_QUOTA_MB = -1;

  get packageMaxFileBytes(): number {
    return this.GITFORGE_PACKAGES_MAX_FILE_SIZE_MB * 1024 * 1024;
  }

  /** Null: no quota. */
  get packageOwnerQuotaBytes(): number | null {
    return this.GITFORGE_PACKAGES_OWNER_QUOTA_MB < 0 ? null : this.GITFORGE_PACKAGES_OWNER_QUOTA_MB * 1024 * 1024;
  }

  /** Interface of the git SSH server (its port is GITFORGE_SSH_PORT; 0 turns it off). */
  @IsString()
  GITFORGE_SSH_HOST = '0.0.0.0';

  /**
   * The SSH server's private host key (OpenSSH or PEM text), for replicas that must all present
   * the same key (a secret in the distributed layout). Without it the key is generated once and
   * kept in `<data>/ssh/`.
   */
  @IsOptional()
  @IsString()
  GITFORGE_SSH_HOST_KEY?: string;

  /** Largest LFS object in bytes (Gitea's LFS_MAX_FILE_SIZE); 0 means no limit. Larger uploads are refused (413, and 422 in a batch). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  GITFORGE_LFS_MAX_FILE_SIZE = 0;
}
