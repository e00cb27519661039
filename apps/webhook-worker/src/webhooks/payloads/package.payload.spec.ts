import type { Package } from '@gitforge/contracts';
import { envelope, repo, ROOT, user } from '../../../test/fixtures.js';
import { feedActionsOf } from '../../feeds/feed-actions.js';
import { buildHookPayload } from './webhook-payloads.js';

const ann = user(1, 'ann');
const acme = user(9, 'acme');
const proj = repo(5, acme, 'proj');

function pkg(repository: Package['repository']): Package {
  return {
    id: 4,
    owner: acme,
    repository,
    creator: ann,
    type: 'npm',
    name: '@acme/tool',
    version: '1.0.0',
    html_url: `${ROOT}acme/-/packages/npm/%40acme%2Ftool/1.0.0`,
    created_at: '2026-01-01T00:00:00Z',
  };
}

describe('package events', () => {
  it.each(['created', 'deleted'] as const)("should send Gitea's package payload for %s to the owner's hooks when no repository is linked", (action) => {
    const built = buildHookPayload(envelope(`package.${action}`, { action, package: pkg(null), repository: null, organization: null, sender: ann, ownerId: 9 }))!;
    expect(built).toMatchObject({ event: 'package', repoId: 0, ownerId: 9, ref: null });
    expect(Object.keys(built.payload)).toEqual(['action', 'repository', 'package', 'organization', 'sender']);
    expect(built.payload).toMatchObject({ action, repository: null, package: { name: '@acme/tool', version: '1.0.0' }, sender: { login: 'ann' } });
  });

  it("should reach the linked repository's hooks too", () => {
    const built = buildHookPayload(envelope('package.created', { action: 'created', package: pkg(proj), repository: proj, organization: null, sender: ann, ownerId: 9 }, 5))!;
    expect(built).toMatchObject({ repoId: 5, ownerId: 9 });
  });

  it("should reach a linked private repository's hooks, whose payload shows no repository", () => {
    const built = buildHookPayload(
      envelope('package.created', { action: 'created', package: pkg(null), repository: null, organization: null, sender: ann, ownerId: 9, repoId: 5 }, 5),
    )!;
    expect(built).toMatchObject({ repoId: 5, ownerId: 9, payload: { repository: null } });
  });

  it('should write no feed entry, as Gitea writes none for packages', () => {
    expect(feedActionsOf(envelope('package.created', { action: 'created', package: pkg(null), repository: null, organization: null, sender: ann, ownerId: 9 }), ROOT)).toEqual([]);
  });
});
