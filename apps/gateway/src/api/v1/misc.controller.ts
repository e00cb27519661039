import { Controller, Get, Param } from '@nestjs/common';
import {
  gitignoreTemplate,
  gitignoreTemplateNames,
  labelTemplate,
  LabelTemplateNames,
  LICENSE_IMPLEMENTATION,
  licenseTemplate,
  licenseTemplateNames,
  notFound,
  type GitignoreTemplateInfo,
  type LabelTemplate,
  type LicensesTemplateListEntry,
  type LicenseTemplateInfo,
  type ServerVersion,
} from '@gitforge/contracts';
import { PlatformConfig } from '@gitforge/platform';
import { GITEA_COMPATIBLE_VERSION } from '../../version.js';

/** Gitea's "Misc (public accessible)" routes: no token scope is required. */
@Controller('api/v1')
export class MiscController {
  constructor(private readonly config: PlatformConfig) {}

  /** Clients gate features on this, so it names the Gitea release whose API we match. */
  @Get('version')
  version(): ServerVersion {
    return { version: GITEA_COMPATIBLE_VERSION };
  }

  /**
   * The instance's commit signing key (Gitea's SigningKeyGPG and SigningKeySSH). gitforge signs no
   * commits and keeps no signing key, so it answers as a Gitea configured without one.
   */
  @Get(['signing-key.gpg', 'signing-key.pub'])
  signingKey(): never {
    throw notFound('no signing key');
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

  /** The `.gitignore` templates a new repository may start with (CreateRepoOption's `gitignores`). */
  @Get('gitignore/templates')
  gitignoreTemplates(): readonly string[] {
    return gitignoreTemplateNames();
  }

  /** One template's text; an unknown name is Gitea's plain 404. */
  @Get('gitignore/templates/:name')
  gitignoreTemplate(@Param('name') name: string): GitignoreTemplateInfo {
    const source = gitignoreTemplate(name);
    if (source === undefined) throw notFound();
    return { name, source };
  }

  /** The licenses a new repository may start with (CreateRepoOption's `license`). */
  @Get('licenses')
  licenses(): LicensesTemplateListEntry[] {
    return licenseTemplateNames().map((key) => ({ key, name: key, url: this.licenseUrl(key) }));
  }

  /** One license's text, placeholders unfilled; an unknown name is Gitea's plain 404. */
  @Get('licenses/:name')
  license(@Param('name') name: string): LicenseTemplateInfo {
    const body = licenseTemplate(name);
    if (body === undefined) throw notFound();
    return { key: name, name, url: this.licenseUrl(name), body, implementation: LICENSE_IMPLEMENTATION };
  }

  private licenseUrl(key: string): string {
    return `${this.config.rootUrl}api/v1/licenses/${encodeURIComponent(key)}`;
  }
}
