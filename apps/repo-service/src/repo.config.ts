import { IsString } from 'class-validator';
import { PlatformConfig } from '@gitforge/platform';

export class RepoServiceConfig extends PlatformConfig {
  /** The git executable. */
  @IsString()
  GITFORGE_GIT_BIN = 'git';
}
