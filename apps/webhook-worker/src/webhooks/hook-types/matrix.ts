import { escapePathSegments, pathEscape } from '@gitforge/contracts';
import type { HookMeta, PayloadCommit } from '@gitforge/contracts';
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
import { chatKind, oneLineInfo, issueCommentInfo, issuesInfo, pullRequestInfo, refShortName, reviewAction } from './general.js';
import { htmlLinkFormatter as link } from './html.js';

/** An m.room.message event body; the request PUTs it under a transaction id (see hook-request.ts). */
export interface MatrixPayload {
  body: string;
  msgtype: string;
  format: 'org.matrix.custom.html';
  formatted_body: string;
  'io.gitea.commits'?: PayloadCommit[];
}

const MESSAGE_TYPES: Record<string, string> = { '1': 'm.notice', '2': 'm.text' };

/** Gitea's MatrixLinkToRef: a ref that is neither a full branch nor tag name links as a commit (as Gitea does for create payloads' short names). */
function refLink(repoUrl: string, ref: string): string {
  const name = refShortName(ref);
  const kind = ref.startsWith('refs/heads/') ? 'branch' : ref.startsWith('refs/tags/') ? 'tag' : 'commit';
  return link(`${repoUrl}/src/${kind}/${escapePathSegments(name)}`, name);
}

/** The plain-text body: links as markdown, line breaks as newlines. */
function plainBody(html: string): string {
  return html.replace(/<a [^>]*?href="([^">]*?)">(.*?)<\/a>/g, '[$2]($1)').replaceAll('<br>', '\n');
}

/** Gitea's matrix format (services/webhook/matrix.go); null for an event it does not render. */
export function matrixPayload(event: string, payload: object, rootUrl: string, meta: HookMeta): MatrixPayload | null {
  const msgtype = MESSAGE_TYPES[String(meta.message_type ?? '')] ?? '';
  const message = (text: string, commits?: PayloadCommit[]): MatrixPayload => ({
    body: plainBody(text),
    msgtype,
    format: 'org.matrix.custom.html',
    formatted_body: text,
    ...(commits && commits.length > 0 ? { 'io.gitea.commits': commits } : {}),
  });
  const kind = chatKind(event, payload);
  switch (kind) {
    case 'create': {
      const p = payload as CreatePayload;
      return message(`[${link(p.repository.html_url, p.repository.full_name)}:${refLink(p.repository.html_url, p.ref)}] ${p.ref_type} created by ${p.sender.login}`);
    }
    case 'delete': {
      const p = payload as DeletePayload;
      return message(`[${link(p.repository.html_url, p.repository.full_name)}:${refShortName(p.ref)}] ${p.ref_type} deleted by ${p.sender.login}`);
    }
    case 'fork': {
      const p = payload as ForkPayload;
      return message(`${link(p.forkee.html_url, p.forkee.full_name)} is forked to ${link(p.repository.html_url, p.repository.full_name)}`);
    }
    case 'push': {
      const p = payload as PushPayload;
      const desc = p.total_commits === 1 ? '1 commit' : `${p.total_commits} commits`;
      const head = `[${link(p.repository.html_url, p.repository.full_name)}] ${p.pusher.login} pushed ${desc} to ${refLink(p.repository.html_url, p.ref)}:<br>`;
      const lines = p.commits.map((c) => `${link(c.url, c.id.slice(0, 7))}: ${c.message} - ${c.author.name}`).join('<br>');
      return message(head + lines, p.commits);
    }
    case 'issue':
      return message(issuesInfo(payload as IssuePayload, link, true, rootUrl).text);
    case 'issueComment':
      return message(issueCommentInfo(payload as IssueCommentPayload, link, true, rootUrl).text);
    case 'pullRequest':
      return message(pullRequestInfo(payload as PullRequestPayload, link, true, rootUrl).text);
    case 'review': {
      const p = payload as PullRequestPayload;
      const action = reviewAction(event);
      if (p.action !== 'reviewed' || !action) return message('');
      const title = link(p.pull_request.url, `#${p.number} ${p.pull_request.title}`);
      const sender = link(rootUrl + pathEscape(p.sender.login), p.sender.login);
      return message(`[${link(p.repository.html_url, p.repository.full_name)}] Pull request review ${action}: ${title} by ${sender}`);
    }
    case 'repository': {
      const p = payload as RepositoryPayload;
      const sender = link(rootUrl + p.sender.login, p.sender.login);
      return message(`[${link(p.repository.html_url, p.repository.full_name)}] Repository ${p.action} by ${sender}`);
    }
    default: {
      const line = oneLineInfo(kind, payload, link, rootUrl);
      return line === null ? null : message(line);
    }
  }
}
