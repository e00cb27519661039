import { ContractError } from '@gitforge/contracts';
import { giteaErrorBody, HttpStatusOfCode, toErrorPayload } from './error-mapping.js';

describe('error mapping', () => {
  it('should keep contract errors and hide everything else as internal', () => {
    expect(toErrorPayload(new ContractError('not_found', 'gone'))).toEqual({ code: 'not_found', message: 'gone' });
    expect(toErrorPayload(new Error('secret detail'))).toEqual({ code: 'internal', message: '' });
    expect(toErrorPayload({ code: 'locked', message: 'repo is archived' })).toEqual({ code: 'locked', message: 'repo is archived' });
  });

  it("should give Gitea's statuses and body", () => {
    expect(HttpStatusOfCode.unprocessable).toBe(422);
    expect(HttpStatusOfCode.locked).toBe(423);
    expect(giteaErrorBody({ code: 'unprocessable', message: 'bad', details: { invalidTopics: ['x'] } }, 'http://h/')).toEqual({
      invalidTopics: ['x'],
      message: 'bad',
      url: 'http://h/api/swagger',
    });
  });

  it("should write no body for empty errors (Gitea's ctx.Status), across the transport too", () => {
    const payload = toErrorPayload(ContractError.empty('permission_denied', 'not the poster'));
    expect(payload).toEqual({ code: 'permission_denied', message: 'not the poster', empty: true });
    expect(ContractError.fromPayload(payload).empty).toBe(true);
    expect(giteaErrorBody(ContractError.fromPayload(payload).toPayload(), 'http://h/')).toBeUndefined();
  });

  it('should write bare errors (authentication middlewares) as {message} alone, across the transport too', () => {
    const payload = toErrorPayload(ContractError.bare('permission_denied', 'Only administrators allowed to sudo.'));
    expect(payload).toEqual({ code: 'permission_denied', message: 'Only administrators allowed to sudo.', bare: true });
    expect(giteaErrorBody(ContractError.fromPayload(payload).toPayload(), 'http://h/')).toEqual({ message: 'Only administrators allowed to sudo.' });
  });
});
