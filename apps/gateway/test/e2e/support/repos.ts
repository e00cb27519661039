/** Builders for repositories and their collaborators through the API (unique names). */
import type { AddCollaboratorOption, CreateIssueOption, CreateRepoOption, Issue, Repository } from '@gitforge/contracts';
import { uniqueName, type Api, type TestUser } from './api.js';

export async function createRepo(owner: Api, extra: Partial<CreateRepoOption> = {}, org?: string): Promise<Repository> {
  const res = await owner.post<Repository>(org ? `/orgs/${org}/repos` : '/user/repos', { name: uniqueName('repo'), ...extra } satisfies Partial<CreateRepoOption>);
  if (res.status !== 201) throw new Error(`creating a repository: ${res.status} ${res.text}`);
  return res.body;
}

export async function addCollaborator(owner: Api, repo: Repository, user: TestUser, permission: 'read' | 'write' | 'admin'): Promise<void> {
  const res = await owner.put(`/repos/${repo.full_name}/collaborators/${user.username}`, { permission } satisfies AddCollaboratorOption);
  if (res.status !== 204) throw new Error(`adding ${user.username}: ${res.status} ${res.text}`);
}

export async function createIssue(as: Api, repo: Repository, body: Partial<CreateIssueOption> = {}): Promise<Issue> {
  const res = await as.post<Issue>(`/repos/${repo.full_name}/issues`, { title: uniqueName('issue'), ...body } satisfies Partial<CreateIssueOption>);
  if (res.status !== 201) throw new Error(`creating an issue: ${res.status} ${res.text}`);
  return res.body;
}
