import { Controller, Get } from '@nestjs/common';
import type { ServerVersion } from '@gitforge/contracts';
import { GITEA_COMPATIBLE_VERSION } from '../../version.js';

/** Gitea's "Misc (public accessible)" routes: no token scope is required. */
@Controller('api/v1')
export class MiscController {
  /** Clients gate features on this, so it names the Gitea release whose API we match. */
  @Get('version')
  version(): ServerVersion {
    return { version: GITEA_COMPATIBLE_VERSION };
  }
}
