import { ContractError } from '@gitforge/contracts';
import { requireAllowedReaction } from './allowed-reactions.js';

describe(requireAllowedReaction.name, () => {
  it("should accept Gitea's default reactions as they are", () => {
    expect(requireAllowedReaction('+1')).toBe('+1');
    expect(requireAllowedReaction('eyes')).toBe('eyes');
  });

  it('should refuse other contents, a missing one and other cases with 403', () => {
    for (const content of ['thumbsup', 'Heart', ' heart', undefined]) {
      let error: unknown;
      try {
        requireAllowedReaction(content);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ContractError);
      expect(error).toMatchObject({
        code: 'permission_denied',
        message: `'${content ?? ''}' is not an allowed reaction`,
      });
    }
  });
});
