import { loadConfig } from '@gitforge/platform';
import { GITEA_ATTACHMENT_ALLOWED_TYPES, IssueServiceConfig } from './issue.config.js';

describe(IssueServiceConfig.name, () => {
  it("should default to Gitea's attachment settings", () => {
    const sut = loadConfig(IssueServiceConfig, {});
    expect(sut.GITFORGE_ATTACHMENT_ALLOWED_TYPES).toBe(GITEA_ATTACHMENT_ALLOWED_TYPES);
    expect(sut.attachmentMaxBytes).toBe(2048 * 1024 * 1024);
  });

  it('should take extensions and MIME types, and refuse anything else with every bad key named', () => {
    const ok = loadConfig(IssueServiceConfig, { GITFORGE_ATTACHMENT_ALLOWED_TYPES: '.txt, image/*,application/pdf|*/*', GITFORGE_ATTACHMENT_MAX_SIZE_MB: '5' });
    expect(ok.attachmentMaxBytes).toBe(5 * 1024 * 1024);
    expect(() => loadConfig(IssueServiceConfig, { GITFORGE_ATTACHMENT_ALLOWED_TYPES: 'txt;exe', GITFORGE_ATTACHMENT_MAX_SIZE_MB: '0' })).toThrow(
      /GITFORGE_ATTACHMENT_MAX_SIZE_MB[\s\S]*GITFORGE_ATTACHMENT_ALLOWED_TYPES|GITFORGE_ATTACHMENT_ALLOWED_TYPES[\s\S]*GITFORGE_ATTACHMENT_MAX_SIZE_MB/,
    );
  });
});
