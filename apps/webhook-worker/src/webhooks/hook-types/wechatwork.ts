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
import { chatKind, oneLineInfo, issueCommentInfo, issuesInfo, noneLinkFormatter, pullRequestInfo, refShortName, reviewAction } from './general.js';

export interface WechatworkPayload {
  msgtype: 'markdown';
  text: { content: string; mentioned_list: null; mentioned_mobile_list: null };
  markdown: { content: string };
}

const markdown = (content: string): WechatworkPayload => ({
  msgtype: 'markdown',
  text: { content: '', mentioned_list: null, mentioned_mobile_list: null },
  markdown: { content },
});

/** Gitea's wechatwork format (services/webhook/wechatwork.go); null for an event it does not render. */
export function wechatworkPayload(event: string, payload: object, rootUrl: string): WechatworkPayload | null {
  const kind = chatKind(event, payload);
  switch (kind) {
    case 'create':
    case 'delete': {
      const p = payload as CreatePayload | DeletePayload;
      return markdown(`[${p.repository.full_name}] ${p.ref_type} ${refShortName(p.ref)} ${event === 'create' ? 'created' : 'deleted'}`);
    }
    case 'fork': {
      const p = payload as ForkPayload;
      return markdown(`${p.forkee.full_name} is forked to ${p.repository.full_name}`);
    }
    case 'push': {
      const p = payload as PushPayload;
      // Gitea leaves the commit count out of the heading.
      const title = `# ${p.repository.full_name}:${refShortName(p.ref)} <font color="warning">    </font>`;
      const text = p.commits
        .map((c) => ` > [${c.id.slice(0, 7)}](${c.url}) \r\n ><font color="info">${c.message.replaceAll('\n\n', '\r\n')}</font> \n ><font color="warning">Author: ${c.author.name}</font>`)
        .join('\n');
      return markdown(`${title}\r\n\r\n${text}`);
    }
    case 'issue': {
      const p = payload as IssuePayload;
      const info = issuesInfo(p, noneLinkFormatter, true, rootUrl);
      return markdown(` ><font color="info">${info.text}</font>\n >${info.extraMarkdown} \n ><font color="warning"> ${info.title}</font> \n [${p.issue.html_url}](${p.issue.html_url})`);
    }
    case 'issueComment': {
      const p = payload as IssueCommentPayload;
      const info = issueCommentInfo(p, noneLinkFormatter, true, rootUrl);
      return markdown(` ><font color="info">${info.text}</font>\n >${p.comment.body} \n ><font color="warning">${info.title}</font> \n [${p.comment.html_url}](${p.comment.html_url})`);
    }
    case 'pullRequest': {
      const p = payload as PullRequestPayload;
      const info = pullRequestInfo(p, noneLinkFormatter, true, rootUrl);
      return markdown(`> <font color="info"> ${info.text} </font> \r\n > <font color="comment">${info.title} </font> \r\n > <font color="comment">${info.extraMarkdown} </font> \r\n`);
    }
    case 'review': {
      const p = payload as PullRequestPayload;
      const action = reviewAction(event);
      const title = p.action === 'synchronized' && action ? `[${p.repository.full_name}] Pull request review ${action} : #${p.number} ${p.pull_request.title}` : '';
      const text = p.action === 'synchronized' ? (p.review?.content ?? '') : '';
      return markdown(`# ${title}\r\n\r\n >${text}`);
    }
    case 'repository': {
      const p = payload as RepositoryPayload;
      return markdown(`[${p.repository.full_name}] Repository ${p.action}`);
    }
    default: {
      const line = oneLineInfo(kind, payload, noneLinkFormatter, rootUrl);
      return line === null ? null : markdown(line);
    }
  }
}
