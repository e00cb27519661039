import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { PlatformConfig } from '@gitforge/platform';

/** Gitea's `[attachment] ALLOWED_TYPES` default. */
export const GITEA_ATTACHMENT_ALLOWED_TYPES =
  '.avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip';

/** One entry: `.ext`, `type/subtype`, `type/*` or `*\/*`; entries separated by commas (or `|`, Gitea's old form). */
const ALLOWED_TYPES = /^\s*(?:(?:\.[A-Za-z0-9_+-]+|[A-Za-z0-9.+-]+\/(?:\*|[A-Za-z0-9.+-]+)|\*\/\*)\s*(?:[,|]\s*|$))*$/;

export class IssueServiceConfig extends PlatformConfig {
  /**
   * Interface of issue-service's own HTTP listener for attachment bytes (the gateway streams
   * uploads and downloads to it). Only used when the apps run as separate processes; the
   * all-in-one process listens on an ephemeral loopback port instead.
   */
  @IsString()
  GITFORGE_ISSUE_HTTP_HOST = '0.0.0.0';

  /** Port of that listener (the gateway's GITFORGE_ISSUE_HTTP_URL points at it). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  GITFORGE_ISSUE_HTTP_PORT = 3200;

  /** Largest issue or comment attachment in MiB (Gitea's `[attachment] MAX_SIZE`); larger uploads are 413. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1024 * 1024)
  GITFORGE_ATTACHMENT_MAX_SIZE_MB = 2048;

  /**
   * File extensions and MIME types an attachment may have (Gitea's `[attachment] ALLOWED_TYPES`):
   * `.ext` matches the name, `type/subtype` and `type/*` the sniffed content, `*\/*` anything.
   * Anything else is 422.
   */
  @Matches(ALLOWED_TYPES, { message: 'must be a comma-separated list of .extensions and MIME types' })
  GITFORGE_ATTACHMENT_ALLOWED_TYPES = GITEA_ATTACHMENT_ALLOWED_TYPES;

  get attachmentMaxBytes(): number {
    return this.GITFORGE_ATTACHMENT_MAX_SIZE_MB * 1024 * 1024;
  }
}
