import { createHmac } from 'node:crypto';
import { ROOT, repo, target, user } from '../../test/fixtures.js';
import { buildHookRequest } from './hook-request.js';

const payload = JSON.stringify({ action: 'created', repository: repo(1, user(1, 'ann'), 'proj'), sender: user(1, 'ann') }, null, 1);
const task = { uuid: '6f1c8c5e-3c1f-4a55-9d0e-1a2b3c4d5e6f', eventType: 'repository', payload };

describe('buildHookRequest', () => {
  it("should send Gitea's headers with HMAC-SHA256 and SHA1 signatures of the body", () => {
    const r = buildHookRequest(target({ secret: 's3cret', kind: 'organization' }), task, ROOT)!;
    const sha256 = createHmac('sha256', 's3cret').update(payload).digest('hex');
    const sha1 = createHmac('sha1', 's3cret').update(payload).digest('hex');
    expect(r.body).toBe(payload);
    expect(r.headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-Gitea-Delivery': task.uuid,
      'X-Gitea-Event': 'repository',
      'X-Gitea-Event-Type': 'repository',
      'X-Gitea-Signature': sha256,
      'X-Gogs-Signature': sha256,
      'X-Hub-Signature': `sha1=${sha1}`,
      'X-Hub-Signature-256': `sha256=${sha256}`,
      'X-GitHub-Delivery': task.uuid,
      'X-GitHub-Event': 'repository',
      'X-Gitea-Hook-Installation-Target-Type': 'organization',
    });
  });

  it('should send empty signatures without a secret', () => {
    const r = buildHookRequest(target(), task, ROOT)!;
    expect(r.headers['X-Gitea-Signature']).toBe('');
    expect(r.headers['X-Hub-Signature-256']).toBe('sha256=');
  });

  it('should send form hooks a payload field, signing the JSON', () => {
    const r = buildHookRequest(target({ contentType: 'form', secret: 'k' }), task, ROOT)!;
    expect(r.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(r.body).get('payload')).toBe(payload);
    expect(r.headers['X-Gitea-Signature']).toBe(createHmac('sha256', 'k').update(payload).digest('hex'));
    expect(r.recordedBody).toBe(payload);
  });

  it("should send Go's default User-Agent, as Gitea's client does, without recording it", () => {
    const r = buildHookRequest(target(), task, ROOT)!;
    expect(r.headers['User-Agent']).toBe('Go-http-client/1.1');
    expect(r.recordedHeaders['User-Agent']).toBeUndefined();
  });

  it('should send the authorization header but record it masked', () => {
    const r = buildHookRequest(target({ authorizationHeader: 'Bearer abc' }), task, ROOT)!;
    expect(r.headers.Authorization).toBe('Bearer abc');
    expect(r.recordedHeaders.Authorization).toBe('******');
  });

  it('should map fine event types to the coarse X-Gitea-Event', () => {
    const r = buildHookRequest(target(), { ...task, eventType: 'issue_label', payload: '{}' }, ROOT)!;
    expect(r.headers['X-Gitea-Event']).toBe('issues');
    expect(r.headers['X-Gitea-Event-Type']).toBe('issue_label');
  });

  it("should convert the payload for chat hooks and sign the converted body", () => {
    const r = buildHookRequest(target({ type: 'slack', secret: 'k', meta: { channel: '#dev' } }), task, ROOT)!;
    expect(JSON.parse(r.body)).toMatchObject({ channel: '#dev', text: expect.stringContaining('Repository created') });
    expect(r.headers['X-Gitea-Signature']).toBe(createHmac('sha256', 'k').update(r.body).digest('hex'));
  });
});
