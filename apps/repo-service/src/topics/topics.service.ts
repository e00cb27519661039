import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  formatTime,
  notFound,
  pageOf,
  type Actor,
  type ListOptions,
  type Page,
  type TopicResponse,
} from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { TopicEntity } from './topic.entity.js';
import { TopicsRepository } from './topics.repository.js';

/** Gitea's limit of topics per repository. */
const MAX_TOPICS = 25;
const TOPIC = /^[a-z0-9][-.a-z0-9]*$/;

/** Gitea's ValidateTopic (after trimming and lower-casing). */
export function isValidTopic(topic: string): boolean {
  return topic.length <= 35 && TOPIC.test(topic);
}

/** Gitea's SanitizeAndValidateTopics: trimmed, lower-cased, empty and repeated ones dropped. */
export function sanitizeTopics(topics: string[]): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const invalid: string[] = [];
  for (const raw of topics) {
    const topic = raw.trim().toLowerCase();
    if (topic === '' || valid.has(topic)) continue;
    if (isValidTopic(topic)) valid.add(topic);
    else invalid.push(topic);
  }
  return { valid: [...valid], invalid };
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A repository's topics (`/repos/{owner}/{repo}/topics`), kept on its row in name order. */
@Injectable()
export class TopicsService {
  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly repos: ReposRepository,
    private readonly topicRows: TopicsRepository,
  ) {}

  /** `GET /topics/search?q=`: every topic in use whose name contains `q`, most used first (Gitea counts private repositories too). */
  async search(keyword: string, options: ListOptions): Promise<Page<TopicResponse>> {
    const [rows, total] = await this.topicRows.search(keyword.trim(), options);
    return pageOf(rows.map(toTopicResponse), total, options);
  }

  async list(actor: Actor | null, owner: string, repo: string, options: ListOptions): Promise<Page<string>> {
    const ctx = await this.access.assign(actor, owner, repo);
    const topics = [...ctx.repo.topics].sort(byName);
    return pageOf(
      topics.slice((options.page - 1) * options.limit, options.page * options.limit),
      topics.length,
      options,
    );
  }

  async replace(actor: Actor | null, owner: string, repo: string, topics: string[]): Promise<void> {
    const ctx = await this.admin(actor, owner, repo);
    const { valid, invalid } = sanitizeTopics(topics);
    if (valid.length > MAX_TOPICS) {
      throw new ContractError('unprocessable', 'Exceeding maximum number of topics per repo', {
        invalidTopics: null,
      });
    }
    if (invalid.length > 0)
      throw new ContractError('unprocessable', 'Topic names are invalid', { invalidTopics: invalid });
    await this.save(ctx, () => valid);
  }

  async add(actor: Actor | null, owner: string, repo: string, raw: string): Promise<void> {
    const ctx = await this.admin(actor, owner, repo);
    const topic = checkedTopic(raw);
    await this.save(ctx, (current) => {
      if (current.includes(topic)) return current;
      if (current.length >= MAX_TOPICS)
        throw new ContractError('unprocessable', 'Exceeding maximum allowed topics per repo.');
      return [...current, topic];
    });
  }

  async delete(actor: Actor | null, owner: string, repo: string, raw: string): Promise<void> {
    const ctx = await this.admin(actor, owner, repo);
    const topic = checkedTopic(raw);
    await this.save(ctx, (current) => {
      if (!current.includes(topic)) throw notFound();
      return current.filter((t) => t !== topic);
    });
  }

  /** Reads the row under lock, so concurrent edits of one repository's topics add up. */
  private async save(ctx: RepoContext, next: (current: string[]) => string[]): Promise<void> {
    await this.db.transaction(async (m) => {
      const row = await this.repos.lockById(m, ctx.repo.id);
      if (!row) throw notFound();
      const topics = next(row.topics).sort(byName);
      await this.repos.update(m, row.id, { topics, updatedAt: new Date() });
      await this.topicRows.recount(
        m,
        topics.filter((t) => !row.topics.includes(t)),
        row.topics.filter((t) => !topics.includes(t)),
      );
    });
  }

  /** Gitea: the topic routes are for repository admins. */
  private async admin(actor: Actor | null, owner: string, repo: string): Promise<RepoContext> {
    const ctx = await this.access.assign(actor, owner, repo);
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    if (!ctx.permission.isAdmin)
      throw forbidden('user should be an owner or a collaborator with admin write of a repository');
    return ctx;
  }
}

function toTopicResponse(t: TopicEntity): TopicResponse {
  return {
    id: t.id,
    topic_name: t.name,
    repo_count: t.repoCount,
    created: formatTime(t.createdAt),
    updated: formatTime(t.updatedAt),
  };
}

/** A single topic from the path; Gitea's 422 names it (as a string, not a list) when it is invalid. */
function checkedTopic(raw: string): string {
  const topic = raw.trim().toLowerCase();
  if (!isValidTopic(topic))
    throw new ContractError('unprocessable', 'Topic name is invalid', { invalidTopics: topic });
  return topic;
}
