import { escapeHtml, escapePathSegments } from '@gitforge/contracts';
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

/** A Bot API sendMessage body (the hook URL carries the bot token and chat id). */
export interface TelegramPayload {
  text: string;
  parse_mode: 'HTML';
  disable_web_page_preview: boolean;
}

// Gitea also runs the HTML through its sanitizer; every piece here is escaped as it is built.
const html = (text: string): TelegramPayload => ({ text: text.trim(), parse_mode: 'HTML', disable_web_page_preview: true });

/** Gitea's telegram format (services/webhook/telegram.go); null for an event it does not render. */
export function telegramPayload(event: string, payload: object, rootUrl: string): TelegramPayload | null {
  const kind = chatKind(event, payload);
  switch (kind) {
    case 'create':
    case 'delete': {
      const p = payload as CreatePayload | DeletePayload;
      const ref = refShortName(p.ref);
      const refLink = link(`${p.repository.html_url}/src/${escapePathSegments(ref)}`, ref);
      return html(`[${link(p.repository.html_url, p.repository.full_name)}] ${escapeHtml(p.ref_type)} ${refLink} ${event === 'create' ? 'created' : 'deleted'}`);
    }
    case 'fork': {
      const p = payload as ForkPayload;
      return html(`${escapeHtml(p.forkee.full_name)} is forked to ${link(p.repository.html_url, p.repository.full_name)}`);
    }
    case 'push': {
      const p = payload as PushPayload;
      const branch = refShortName(p.ref);
      let titleLink = p.total_commits === 1 ? (p.commits[0]?.url ?? '') : p.compare_url;
      if (!titleLink) titleLink = `${p.repository.html_url}/src/${escapePathSegments(branch)}`;
      const desc = p.total_commits === 1 ? '1 new commit' : `${p.total_commits} new commits`;
      let text = `[${link(p.repository.html_url, p.repository.full_name)}:${link(titleLink, branch)}] ${escapeHtml(desc)}`;
      for (const c of p.commits) {
        text += `\n[${link(c.url, c.id.slice(0, 7))}] ${escapeHtml(c.message.replace(/[\r\n]+$/, ''))} - ${escapeHtml(c.author.name)}`;
      }
      return html(text);
    }
    case 'issue': {
      const p = payload as IssuePayload;
      const info = issuesInfo(p, link, true, rootUrl);
      return html(`${info.text}\n\n${escapeHtml(info.extraMarkdown)}`);
    }
    case 'issueComment': {
      const p = payload as IssueCommentPayload;
      return html(`${issueCommentInfo(p, link, true, rootUrl).text}\n${escapeHtml(p.comment.body)}`);
    }
    case 'pullRequest': {
      const p = payload as PullRequestPayload;
      const info = pullRequestInfo(p, link, true, rootUrl);
      return html(`${info.text}\n${escapeHtml(info.extraMarkdown)}`);
    }
    case 'review': {
      const p = payload as PullRequestPayload;
      const action = reviewAction(event);
      if (p.action !== 'reviewed' || !action) return html('');
      const text = `[${escapeHtml(p.repository.full_name)}] Pull request review ${escapeHtml(action)}: #${p.number} ${escapeHtml(p.pull_request.title)}`;
      return html(`${text}\n${escapeHtml(p.review?.content ?? '')}`);
    }
    case 'repository': {
      const p = payload as RepositoryPayload;
      if (p.action === 'created') return html(`[${link(p.repository.html_url, p.repository.full_name)}] Repository created`);
      return html(`[${escapeHtml(p.repository.full_name)}] Repository deleted`);
    }
    default: {
      const line = oneLineInfo(kind, payload, link, rootUrl);
      return line === null ? null : html(line);
    }
  }
}
