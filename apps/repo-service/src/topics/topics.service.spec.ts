import { isValidTopic, sanitizeTopics } from './topics.service.js';

describe(sanitizeTopics.name, () => {
  it('should trim, lower-case and drop empty and repeated topics, keeping the invalid ones apart', () => {
    expect(sanitizeTopics([' Go ', 'go', '', 'web', '-x', 'a b'])).toEqual({
      valid: ['go', 'web'],
      invalid: ['-x', 'a b'],
    });
  });

  it("should follow Gitea's topic rule: lower-case letters, digits, dots and dashes, not first, at most 35", () => {
    expect(isValidTopic('api-v1.2')).toBe(true);
    expect(isValidTopic('.hidden')).toBe(false);
    expect(isValidTopic('x'.repeat(35))).toBe(true);
    expect(isValidTopic('x'.repeat(36))).toBe(false);
  });
});
