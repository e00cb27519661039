import type { RepoAccess, User } from '@gitforge/contracts';
import type { CommentEntity } from './comment.entity.js';
import { toComment, toTimelineComment } from './comment.mapper.js';

const repo = {
  repository: { html_url: 'http://forge/alice/talk', url: 'http://forge/api/v1/repos/alice/talk' },
} as RepoAccess;
const poster = { id: 3, login: 'carol' } as User;
const row = (type: number): CommentEntity =>
  ({
    id: 42,
    type,
    issueId: 1,
    posterId: 3,
    originalAuthor: '',
    originalAuthorId: 0,
    content: 'hello',
    contentVersion: 0,
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
    updatedAt: new Date('2026-01-02T03:04:06.000Z'),
  }) as CommentEntity;

describe(toComment.name, () => {
  it("should link an issue's comment from the issue page, with no pull request URL", () => {
    expect(toComment(row(0), { idx: 5, isPull: false }, repo, { poster, assets: [] })).toEqual({
      id: 42,
      html_url: 'http://forge/alice/talk/issues/5#issuecomment-42',
      issue_url: 'http://forge/alice/talk/issues/5',
      pull_request_url: '',
      user: poster,
      original_author: '',
      original_author_id: 0,
      body: 'hello',
      assets: [],
      created_at: '2026-01-02T03:04:05Z',
      updated_at: '2026-01-02T03:04:06Z',
    });
  });

  it("should link a pull request's comment from the pull page, with no issue URL", () => {
    expect(toComment(row(0), { idx: 6, isPull: true }, repo, { poster, assets: [] })).toMatchObject({
      html_url: 'http://forge/alice/talk/pulls/6#issuecomment-42',
      issue_url: '',
      pull_request_url: 'http://forge/alice/talk/pulls/6',
    });
  });
});

describe(toTimelineComment.name, () => {
  it("should name each kind of history row as Gitea's CommentType does", () => {
    expect(
      [0, 1, 2].map((type) => toTimelineComment(row(type), { idx: 5, isPull: false }, repo, { poster }).type),
    ).toEqual(['comment', 'reopen', 'close']);
    expect(toTimelineComment(row(2), { idx: 5, isPull: false }, repo, { poster })).toMatchObject({
      user: poster,
      ref_action: 'none',
      body: 'hello',
    });
  });
});
