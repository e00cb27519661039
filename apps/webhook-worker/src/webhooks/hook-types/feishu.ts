import type {
  CreatePayload,
  DeletePayload,
  ForkPayload,
  IssueCommentPayload,
  IssuePayload,
  PullRequestPayload,
  PushPayload,
  RepositoryPayload,
} from '@gitforge/contracts';
import { chatKind, commentCardLines, issueCardLines, noneLinkFormatter, oneLineInfo, refShortName, reviewAction } from './general.js';

export interface FeishuPayload {
  msg_type: 'text';
  content: { text: string };
}

const text = (t: string): FeishuPayload => ({ msg_type: 'text', content: { text: t.trim() } });

/**
 * Gitea's feishu format (services/webhook/feishu.go); null for an event it does not render.
 * Issues, pull requests and comments use feishu's own card lines (getIssuesInfo and its
 * siblings), the body after a blank line; a push's first line has no commit count, as in Gitea.
 */
export function feishuPayload(event: string, payload: object, rootUrl: string): FeishuPayload | null {
  const kind = chatKind(event, payload);
  switch (kind) {
    case 'create':
    case 'delete': {
      const p = payload as CreatePayload | DeletePayload;
      return text(`[${p.repository.full_name}] ${p.ref_type} ${refShortName(p.ref)} ${event === 'create' ? 'created' : 'deleted'}`);
    }
    case 'fork': {
      const p = payload as ForkPayload;
      return text(`${p.forkee.full_name} is forked to ${p.repository.full_name}`);
    }
    case 'push': {
      const p = payload as PushPayload;
      const commits = p.commits.map((c) => `[${c.id.slice(0, 7)}](${c.url}) ${c.message.replace(/[\r\n]+$/, '')} - ${c.author.name}`).join('\r\n');
      return text(`[${p.repository.full_name}:${refShortName(p.ref)}] \r\n${commits}`);
    }
    case 'issue':
    case 'pullRequest': {
      const card = issueCardLines(payload as IssuePayload | PullRequestPayload);
      return text(`${card.lines.join('\n')}\n\n${card.body}`);
    }
    case 'issueComment': {
      const p = payload as IssueCommentPayload;
      return text(`${commentCardLines(p).join('\n')}\n\n${p.comment.body}`);
    }
    case 'review': {
      const p = payload as PullRequestPayload;
      const action = reviewAction(event);
      if (!action) return null;
      return text(`[${p.repository.full_name}] Pull request review ${action} : #${p.number} ${p.pull_request.title}\r\n\r\n${p.review?.content ?? ''}`);
    }
    case 'repository': {
      const p = payload as RepositoryPayload;
      return text(`[${p.repository.full_name}] Repository ${p.action}`);
    }
    default: {
      const line = oneLineInfo(kind, payload, noneLinkFormatter, rootUrl);
      return line === null ? null : text(line);
    }
  }
}
