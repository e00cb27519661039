import type { HookMeta } from '@gitforge/contracts';
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
import {
  chatKind,
  oneLineInfo,
  hexColor,
  issueCommentInfo,
  issuesInfo,
  pullRequestInfo,
  refShortName,
  refUrl,
  reviewAction,
} from './general.js';

interface SlackAttachment {
  fallback: string;
  color: string;
  title: string;
  title_link: string;
  text: string;
}

export interface SlackPayload {
  channel: string;
  text: string;
  username: string;
  icon_url: string;
  unfurl_links: number;
  link_names: number;
  attachments: SlackAttachment[] | null;
}

/** Slack's escaping of &, < and > (https://api.slack.com/docs/formatting). */
export const slackText = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const slackShortText = (s: string): string => slackText(s.split('\n')[0]!);
export const slackLink = (url: string, text: string): string => `<${url}|${slackText(text)}>`;
const slackRefLink = (repoUrl: string, ref: string): string => slackLink(refUrl(repoUrl, ref), refShortName(ref));

const attachment = (color: string, title: string, titleLink: string, text: string): SlackAttachment => ({
  fallback: '',
  color,
  title,
  title_link: titleLink,
  text,
});

/** Gitea's slack format (services/webhook/slack.go); null for an event slack hooks do not render. */
export function slackPayload(event: string, payload: object, rootUrl: string, meta: HookMeta): SlackPayload | null {
  const create = (text: string, attachments: SlackAttachment[] | null = null): SlackPayload => ({
    channel: meta.channel ?? '',
    text,
    username: meta.username ?? '',
    icon_url: meta.icon_url ?? '',
    unfurl_links: 0,
    link_names: 0,
    attachments,
  });
  const senderLink = (login: string): string => slackLink(rootUrl + login, login);
  const kind = chatKind(event, payload);
  switch (kind) {
    case 'create': {
      const p = payload as CreatePayload;
      return create(`[${slackLink(p.repository.html_url, p.repository.full_name)}:${slackRefLink(p.repository.html_url, p.ref)}] ${p.ref_type} created by ${p.sender.login}`);
    }
    case 'delete': {
      const p = payload as DeletePayload;
      return create(`[${slackLink(p.repository.html_url, p.repository.full_name)}:${refShortName(p.ref)}] ${p.ref_type} deleted by ${p.sender.login}`);
    }
    case 'fork': {
      const p = payload as ForkPayload;
      return create(`${slackLink(p.forkee.html_url, p.forkee.full_name)} is forked to ${slackLink(p.repository.html_url, p.repository.full_name)}`);
    }
    case 'push': {
      const p = payload as PushPayload;
      const desc = p.total_commits === 1 ? '1 new commit' : `${p.total_commits} new commits`;
      const commitString = p.compare_url ? slackLink(p.compare_url, desc) : desc;
      const repoLink = slackLink(p.repository.html_url, p.repository.full_name);
      const text = `[${repoLink}:${slackRefLink(p.repository.html_url, p.ref)}] ${commitString} pushed by ${p.pusher.login}`;
      const lines = p.commits.map((c) => `${slackLink(c.url, c.id.slice(0, 7))}: ${slackShortText(c.message)} - ${slackText(c.author.name)}`);
      return create(text, [attachment(meta.color ?? '', p.repository.html_url, p.repository.html_url, lines.join('\n'))]);
    }
    case 'issue': {
      const p = payload as IssuePayload;
      const info = issuesInfo(p, slackLink, true, rootUrl);
      return create(info.text, info.extraMarkdown ? [attachment(hexColor(info.color), slackText(info.title), p.issue.html_url, slackText(info.extraMarkdown))] : null);
    }
    case 'issueComment': {
      const p = payload as IssueCommentPayload;
      const info = issueCommentInfo(p, slackLink, true, rootUrl);
      return create(info.text, [attachment(hexColor(info.color), info.title, p.comment.html_url, slackText(p.comment.body))]);
    }
    case 'pullRequest': {
      const p = payload as PullRequestPayload;
      const info = pullRequestInfo(p, slackLink, true, rootUrl);
      return create(
        info.text,
        info.extraMarkdown ? [attachment(hexColor(info.color), slackText(info.title), p.pull_request.html_url, slackText(p.pull_request.body))] : null,
      );
    }
    case 'review': {
      const p = payload as PullRequestPayload;
      const action = reviewAction(event);
      if (p.action !== 'reviewed' || !action) return create('');
      const title = `#${p.number} ${p.pull_request.title}`;
      const repoLink = slackLink(p.repository.html_url, p.repository.full_name);
      return create(`[${repoLink}] Pull request review ${action}: [${title}](${p.repository.html_url}/pulls/${p.number}) by ${senderLink(p.sender.login)}`);
    }
    case 'repository': {
      const p = payload as RepositoryPayload;
      const repoLink = slackLink(p.repository.html_url, p.repository.full_name);
      if (p.action === 'created') return create(`[${repoLink}] Repository created by ${senderLink(p.sender.login)}`);
      return create(`[${repoLink}] Repository deleted by ${senderLink(p.sender.login)}`);
    }
    default: {
      const line = oneLineInfo(kind, payload, slackLink, rootUrl);
      return line === null ? null : create(line);
    }
  }
}
