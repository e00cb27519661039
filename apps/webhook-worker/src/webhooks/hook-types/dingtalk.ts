import { escapePathSegments, pathEscape, queryEscape } from '@gitforge/contracts';
import type {
  CommitStatusPayload,
  CreatePayload,
  DeletePayload,
  ForkPayload,
  IssueCommentPayload,
  IssuePayload,
  PackagePayload,
  PullRequestPayload,
  PushPayload,
  ReleasePayload,
  RepositoryPayload,
  WikiPayload,
} from '@gitforge/contracts';
import {
  chatKind,
  issueCommentInfo,
  issuesInfo,
  noneLinkFormatter,
  packageInfo,
  pullRequestInfo,
  refShortName,
  releaseInfo,
  reviewAction,
  statusInfo,
  wikiInfo,
} from './general.js';

/** The message of lunny/dingtalk_webhook's Payload, every part present as Go marshals it. */
export interface DingtalkPayload {
  msgtype: 'actionCard' | 'text';
  text: { content: string };
  link: { title: string; text: string; picUrl: string; messageUrl: string };
  markdown: { title: string; text: string };
  actionCard: { text: string; title: string; hideAvatar: string; btnOrientation: string; singleTitle?: string; singleURL: string };
  feedCard: { links: null };
  at: { atMobiles: null; isAtAll: boolean };
}

function message(msgtype: DingtalkPayload['msgtype']): DingtalkPayload {
  return {
    msgtype,
    text: { content: '' },
    link: { title: '', text: '', picUrl: '', messageUrl: '' },
    markdown: { title: '', text: '' },
    actionCard: { text: '', title: '', hideAvatar: '', btnOrientation: '', singleURL: '' },
    feedCard: { links: null },
    at: { atMobiles: null, isAtAll: false },
  };
}

/** An action card whose button opens `url` in the browser rather than inside the DingTalk client. */
function card(title: string, text: string, singleTitle: string, url: string): DingtalkPayload {
  const p = message('actionCard');
  p.actionCard = {
    text: text.trim(),
    title: title.trim(),
    hideAvatar: '0',
    btnOrientation: '',
    ...(singleTitle ? { singleTitle } : {}),
    singleURL: `dingtalk://dingtalkclient/page/link?pc_slide=false&url=${queryEscape(url)}`,
  };
  return p;
}

/** Gitea's dingtalk format (services/webhook/dingtalk.go); null for an event it does not render. */
export function dingtalkPayload(event: string, payload: object, rootUrl: string): DingtalkPayload | null {
  switch (chatKind(event, payload)) {
    case 'create':
    case 'delete': {
      const p = payload as CreatePayload | DeletePayload;
      const ref = refShortName(p.ref);
      const title = `[${p.repository.full_name}] ${p.ref_type} ${ref} ${event === 'create' ? 'created' : 'deleted'}`;
      return card(title, title, `view ref ${ref}`, `${p.repository.html_url}/src/${escapePathSegments(ref)}`);
    }
    case 'fork': {
      const p = payload as ForkPayload;
      const title = `${p.forkee.full_name} is forked to ${p.repository.full_name}`;
      return card(title, title, `view forked repo ${p.repository.full_name}`, p.repository.html_url);
    }
    case 'push': {
      const p = payload as PushPayload;
      const branch = refShortName(p.ref);
      const first = p.commits[0];
      const last = p.commits[p.commits.length - 1];
      let titleLink = p.total_commits === 1 ? (first?.url ?? '') : p.compare_url;
      const linkText = p.total_commits === 1 ? `view commit ${first?.id.slice(0, 7) ?? ''}` : `view commits ${first?.id.slice(0, 7) ?? ''}...${last?.id.slice(0, 7) ?? ''}`;
      if (!titleLink) titleLink = `${p.repository.html_url}/src/${escapePathSegments(branch)}`;
      const desc = p.total_commits === 1 ? '1 new commit' : `${p.total_commits} new commits`;
      const text = p.commits.map((c) => `[${c.id.slice(0, 7)}](${c.url}) ${c.message.replace(/[\r\n]+$/, '')} - ${c.author.name}`).join('\r\n');
      return card(`[${p.repository.full_name}:${branch}] ${desc}`, text, linkText, titleLink);
    }
    case 'issue': {
      const p = payload as IssuePayload;
      const info = issuesInfo(p, noneLinkFormatter, true, rootUrl);
      return card(info.title, `${info.text}\r\n\r\n${info.extraMarkdown}`, 'view issue', p.issue.html_url);
    }
    case 'issueComment': {
      const p = payload as IssueCommentPayload;
      const info = issueCommentInfo(p, noneLinkFormatter, true, rootUrl);
      return card(info.title, `${info.text}\r\n\r\n${p.comment.body}`, 'view issue comment', p.comment.html_url);
    }
    case 'pullRequest': {
      const p = payload as PullRequestPayload;
      const info = pullRequestInfo(p, noneLinkFormatter, true, rootUrl);
      return card(info.title, `${info.text}\r\n\r\n${info.extraMarkdown}`, 'view pull request', p.pull_request.html_url);
    }
    case 'review': {
      const p = payload as PullRequestPayload;
      const action = reviewAction(event);
      const title = p.action === 'reviewed' && action ? `[${p.repository.full_name}] Pull request review ${action} : #${p.number} ${p.pull_request.title}` : '';
      const text = p.action === 'reviewed' ? (p.review?.content ?? '') : '';
      return card(title, `${title}\r\n\r\n${text}`, 'view pull request', p.pull_request.html_url);
    }
    case 'repository': {
      const p = payload as RepositoryPayload;
      const title = `[${p.repository.full_name}] Repository ${p.action}`;
      if (p.action === 'created') return card(title, title, 'view repository', p.repository.html_url);
      const deleted = message('text');
      deleted.text.content = title;
      return deleted;
    }
    case 'release': {
      const p = payload as ReleasePayload;
      const { text } = releaseInfo(p, noneLinkFormatter, true, rootUrl);
      return card(text, text, 'view release', p.release.html_url);
    }
    case 'wiki': {
      const p = payload as WikiPayload;
      const { text } = wikiInfo(p, noneLinkFormatter, true, rootUrl);
      return card(text, text, 'view wiki', `${p.repository.html_url}/wiki/${pathEscape(p.page)}`);
    }
    case 'package': {
      const p = payload as PackagePayload;
      const { text } = packageInfo(p, noneLinkFormatter, true, rootUrl);
      return card(text, text, 'view package', p.package.html_url);
    }
    case 'status': {
      const p = payload as CommitStatusPayload;
      const { text } = statusInfo(p, noneLinkFormatter, true, rootUrl);
      return card(text, text, 'Status Changed', p.target_url);
    }
    default:
      return null;
  }
}
