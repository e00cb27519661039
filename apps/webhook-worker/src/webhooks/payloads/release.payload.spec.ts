import type { Release } from '@gitforge/contracts';
import { envelope, repo, ROOT, user } from '../../../test/fixtures.js';
import { feedActionsOf } from '../../feeds/feed-actions.js';
import { buildHookPayload } from './webhook-payloads.js';

const ann = user(1, 'ann');
const bea = user(2, 'bea');
const acme = user(9, 'acme');
const proj = repo(5, acme, 'proj');

function release(tag: string, author = ann): Release {
  const api = `${ROOT}api/v1/repos/acme/proj`;
  return {
    id: 3,
    tag_name: tag,
    target_commitish: 'main',
    name: `Release ${tag}`,
    body: 'notes',
    url: `${api}/releases/3`,
    html_url: `${ROOT}acme/proj/releases/tag/${tag}`,
    tarball_url: `${ROOT}acme/proj/archive/${tag}.tar.gz`,
    zipball_url: `${ROOT}acme/proj/archive/${tag}.zip`,
    upload_url: `${api}/releases/3/assets`,
    draft: false,
    prerelease: false,
    created_at: '2026-01-01T00:00:00Z',
    published_at: '2026-01-01T00:00:00Z',
    author,
    assets: [],
  };
}

describe('release events', () => {
  it.each(['published', 'updated', 'deleted'] as const)("should send Gitea's release payload for %s, outside branch filters", (action) => {
    const built = buildHookPayload(envelope(`release.${action}`, { action, release: release('v1'), repository: proj, sender: bea }))!;
    expect(built).toMatchObject({ event: 'release', repoId: 5, ownerId: 9, ref: null });
    expect(Object.keys(built.payload)).toEqual(['action', 'release', 'repository', 'sender']);
    expect(built.payload).toMatchObject({ action, release: { tag_name: 'v1' }, sender: { login: 'bea' } });
  });

  it('should record publish_release for the publisher (ref: the tag, content: the title), and nothing for updates or deletions', () => {
    expect(feedActionsOf(envelope('release.published', { action: 'published', release: release('v1', ann), repository: proj, sender: bea }), ROOT)).toEqual([
      { opType: 'publish_release', actUserId: 1, repo: proj, refName: 'v1', content: 'Release v1', commentId: 0 },
    ]);
    expect(feedActionsOf(envelope('release.updated', { action: 'updated', release: release('v1'), repository: proj, sender: bea }), ROOT)).toEqual([]);
    expect(feedActionsOf(envelope('release.deleted', { action: 'deleted', release: release('v1'), repository: proj, sender: bea }), ROOT)).toEqual([]);
  });
});
