import { GITEA_ATTACHMENT_ALLOWED_TYPES } from '../issue.config.js';
import { isAllowedUpload } from './upload-policy.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe(isAllowedUpload.name, () => {
  it("should allow Gitea's default extensions, in any case, and refuse others", () => {
    expect(isAllowedUpload(GITEA_ATTACHMENT_ALLOWED_TYPES, 'notes.TXT', Buffer.from('hi'))).toBe(true);
    expect(isAllowedUpload(GITEA_ATTACHMENT_ALLOWED_TYPES, 'shot.png', PNG)).toBe(true);
    expect(isAllowedUpload(GITEA_ATTACHMENT_ALLOWED_TYPES, 'run.exe', Buffer.from('MZ'))).toBe(false);
    expect(isAllowedUpload(GITEA_ATTACHMENT_ALLOWED_TYPES, 'no-extension', Buffer.from('text'))).toBe(false);
  });

  it('should match MIME entries against the sniffed bytes, and only when bytes are known', () => {
    expect(isAllowedUpload('image/*', 'picture.bin', PNG)).toBe(true);
    expect(isAllowedUpload('image/png', 'picture.bin', PNG)).toBe(true);
    expect(isAllowedUpload('image/png', 'picture.bin', Buffer.from('plain text'))).toBe(false);
    expect(isAllowedUpload('text/plain', 'a.bin', Buffer.from('plain text'))).toBe(true);
    expect(isAllowedUpload('image/*', 'picture.png', null)).toBe(false);
  });

  it('should allow everything for */* and accept the old | separator', () => {
    expect(isAllowedUpload('*/*', 'run.exe', null)).toBe(true);
    expect(isAllowedUpload('.txt|.md', 'a.md', null)).toBe(true);
  });
});
