import { Controller, Get } from '@nestjs/common';
import type { ServerVersion } from '@gitforge/contracts';
import { Access } from '../../auth/access-policy.js';
import { GITEA_COMPATIBLE_VERSION } from '../../version.js';

@Controller('api/v1')
@Access({ scope: 'misc' })
export class MiscController {
  /** Clients gate features on this, so it names the Gitea release whose API we match. */
  @Get('version')
  version(): ServerVersion {
    return { version: GITEA_COMPATIBLE_VERSION };
  }
}
