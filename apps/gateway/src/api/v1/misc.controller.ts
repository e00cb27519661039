import { Controller, Get, Param } from '@nestjs/common';
import { labelTemplate, LabelTemplateNames, notFound, type LabelTemplate, type ServerVersion } from '@gitforge/contracts';
import { GITEA_COMPATIBLE_VERSION } from '../../version.js';

/** Gitea's "Misc (public accessible)" routes: no token scope is required. */
@Controller('api/v1')
export class MiscController {
  /** Clients gate features on this, so it names the Gitea release whose API we match. */
  @Get('version')
  version(): ServerVersion {
    return { version: GITEA_COMPATIBLE_VERSION };
  }

  /** The label templates a new repository may start with (CreateRepoOption's `issue_labels`). */
  @Get('label/templates')
  labelTemplates(): readonly string[] {
    return LabelTemplateNames;
  }

  /** One template's labels; an unknown name is 404. */
  @Get('label/templates/:name')
  labelTemplate(@Param('name') name: string): readonly LabelTemplate[] {
    const labels = labelTemplate(name);
    if (!labels) throw notFound(`label template "${name}" does not exist`);
    return labels;
  }
}
