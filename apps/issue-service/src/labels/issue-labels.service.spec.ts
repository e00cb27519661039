import { AccessMode, ContractError, type Actor, type Issue, type RepoAccess, type User } from '@gitforge/contracts';
import type { Database, PlatformConfig } from '@gitforge/platform';
import type { EntityManager } from 'typeorm';
import type { CommentsRepository } from '../comments/comments.repository.js';
import type { IssueEvents } from '../issues/issue-events.js';
import type { IssueLoader } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import type { IssuesRepository } from '../issues/issues.repository.js';
import type { IssuesService } from '../issues/issues.service.js';
import { IssueLabelsService } from './issue-labels.service.js';
import { LabelResolver } from './label-resolver.js';
import type { LabelEntity } from './label.entity.js';
import type { LabelsRepository } from './labels.repository.js';

const actor: Actor = { id: 7, login: 'writer', isAdmin: false, scopes: null };
const sender = { id: 7, login: 'writer' } as User;
const manager = {} as EntityManager;

const label = (id: number, name: string, exclusive = false): LabelEntity =>
  ({ id, name, exclusive, repoId: 1, orgId: 0, color: '#000000', description: '', archivedAt: null }) as LabelEntity;

/**
 * Fakes that record what the service did; each has only the methods the service may call, so
 * any other call fails the test.
 */
function setup(options: { writer?: boolean; current: LabelEntity[]; known: LabelEntity[] }) {
  const units = { 'repo.issues': options.writer === false ? AccessMode.read : AccessMode.write, 'repo.pulls': AccessMode.read };
  const repo = {
    id: 1,
    ownerKind: 'user',
    ownerId: 2,
    ownerLogin: 'o',
    repository: { url: 'http://x/api/v1/repos/o/r' },
    units,
    settings: { has_issues: true, has_pull_requests: true },
  } as unknown as RepoAccess;
  const issue = { id: 11, repoId: 1, idx: 3, isPull: false } as IssueEntity;
  const calls: string[] = [];
  const events: Array<{ name: string; action: string; changes?: unknown }> = [];
  let onIssue = [...options.current];
  const sut = new IssueLabelsService(
    {
      transaction: async <T>(work: (m: EntityManager) => Promise<T>): Promise<T> => {
        calls.push('transaction');
        return work(manager);
      },
    } as unknown as Database,
    {
      issueForWrite: async () => ({ repo, issue, actor }),
    } as unknown as IssuesService,
    {
      update: async (_m: EntityManager, id: number, changes: Partial<IssueEntity>) => {
        calls.push(`update ${id} ${changes.updatedAt instanceof Date ? 'updatedAt' : '?'}`);
      },
      findById: async () => issue,
      lock: async (_m: EntityManager, id: number) => {
        calls.push(`lock ${id}`);
        return issue;
      },
    } as unknown as IssuesRepository,
    {
      labelsOfIssues: async () => new Map([[issue.id, onIssue]]),
      idsByNames: async () => [],
      findByIds: async (ids: number[]) => options.known.filter((l) => ids.includes(l.id)),
      removeFromIssue: async (_m: EntityManager, _issueId: number, ids: number[]) => {
        calls.push(`remove ${ids.join(',')}`);
        onIssue = onIssue.filter((l) => !ids.includes(l.id));
      },
      addToIssue: async (_m: EntityManager, _issueId: number, ids: number[]) => {
        calls.push(`add ${ids.join(',')}`);
        onIssue = [...onIssue, ...options.known.filter((l) => ids.includes(l.id))];
      },
    } as unknown as LabelsRepository,
    {
      users: async () => new Map([[sender.id, sender]]),
      one: async () => ({ number: 3 }) as Issue,
    } as unknown as IssueLoader,
    {
      issue: async (m: EntityManager, name: string, e: { action: string; changes?: unknown }) => {
        expect(m).toBe(manager);
        events.push({ name, action: e.action, ...(e.changes ? { changes: e.changes } : {}) });
      },
    } as unknown as IssueEvents,
    { rootUrl: 'http://x/' } as PlatformConfig,
    new LabelResolver({
      idsByNames: async () => [],
      findByIds: async (ids: number[]) => options.known.filter((l) => ids.includes(l.id)),
    } as unknown as LabelsRepository),
    {
      addEvent: async (m: EntityManager, e: { type: number; content?: string; refs?: { labelId?: number } }) => {
        expect(m).toBe(manager);
        calls.push(`history ${e.type} ${e.refs?.labelId} "${e.content}"`);
      },
    } as unknown as CommentsRepository,
  );
  return { sut, calls, events };
}

describe(IssueLabelsService.name, () => {
  const bug = label(1, 'kind/bug', true);
  const feature = label(2, 'kind/feature', true);
  const docs = label(3, 'docs');

  it('should swap the label of an exclusive scope, bump updated_at, write a history row per label and issue.labeled in the same transaction', async () => {
    const { sut, calls, events } = setup({ current: [bug, docs], known: [bug, feature, docs] });
    const result = await sut.add(actor, 'o', 'r', '3', { labels: [feature.id] });
    expect(result.map((l) => l.name)).toEqual(['docs', 'kind/feature']);
    expect(calls).toEqual(['transaction', 'lock 11', 'remove 1', 'add 2', 'update 11 updatedAt', 'history 7 1 ""', 'history 7 2 "1"']);
    expect(events).toEqual([
      {
        name: 'issue.labeled',
        action: 'label_updated',
        changes: {
          added_labels: [expect.objectContaining({ id: 2, name: 'kind/feature', url: 'http://x/api/v1/repos/o/r/labels/2' })],
          removed_labels: [expect.objectContaining({ id: 1, name: 'kind/bug' })],
        },
      },
    ]);
  });

  it('should write nothing when the labels do not change', async () => {
    const { sut, calls, events } = setup({ current: [docs], known: [docs] });
    expect((await sut.add(actor, 'o', 'r', '3', { labels: [docs.id] })).map((l) => l.id)).toEqual([3]);
    expect(calls).toEqual(['transaction', 'lock 11']);
    expect(events).toEqual([]);
  });

  it('should drop an id or a name that names no label of the repository, as Gitea does', async () => {
    const { sut } = setup({ current: [docs], known: [docs] });
    expect((await sut.add(actor, 'o', 'r', '3', { labels: [docs.id, 999, 2 ** 70] })).map((l) => l.id)).toEqual([docs.id]);
    expect((await sut.replace(actor, 'o', 'r', '3', { labels: ['nope'] })).map((l) => l.id)).toEqual([]);
  });

  it('should clear the labels with a label_cleared event', async () => {
    const { sut, calls, events } = setup({ current: [bug, docs], known: [] });
    await sut.clear(actor, 'o', 'r', '3');
    expect(calls).toEqual(['transaction', 'lock 11', 'remove 1,3', 'add ', 'update 11 updatedAt', 'history 7 1 ""', 'history 7 3 ""']);
    expect(events).toEqual([{ name: 'issue.labeled', action: 'label_cleared' }]);
  });

  it('should refuse readers before changing anything', async () => {
    const { sut, calls } = setup({ writer: false, current: [], known: [docs] });
    await expect(sut.replace(actor, 'o', 'r', '3', { labels: [docs.id] })).rejects.toEqual(
      new ContractError('permission_denied', 'write permission is required'),
    );
    expect(calls).toEqual([]);
  });
});
