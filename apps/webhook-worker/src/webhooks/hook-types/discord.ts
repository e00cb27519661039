import { escapePathSegments, pathEscape } from '@gitforge/contracts';
import type { HookMeta, User } from '@gitforge/contracts';
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
  Colors,
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

interface DiscordEmbed {
  title: string;
  description: string;
  url: string;
  color: number;
  footer: { text: string };
  author: { name: string; url: string; icon_url: string };
  fields: null;
}

export interface DiscordPayload {
  wait: boolean;
  content: string;
  username: string;
  avatar_url?: string;
  tts: boolean;
  embeds: DiscordEmbed[];
}

/** The first line of a commit message, at most 50 characters (as GitHub shows it). */
function commitSummary(message: string): string {
  const line = message.split('\n', 1)[0]!.replace(/\r+$/, '');
  const chars = [...line];
  return chars.length > 50 ? `${chars.slice(0, 47).join('')}...` : line;
}

/** Gitea's discord format (services/webhook/discord.go); null for an event discord hooks do not render. */
export function discordPayload(event: string, payload: object, rootUrl: string, meta: HookMeta): DiscordPayload | null {
  const create = (sender: User, title: string, text: string, url: string, color: number): DiscordPayload => {
    const result: DiscordPayload = {
      wait: false,
      content: '',
      username: meta.username ?? '',
      tts: false,
      embeds: [
        {
          title,
          description: text,
          url,
          color,
          footer: { text: '' },
          author: { name: sender.login, url: rootUrl + sender.login, icon_url: sender.avatar_url },
          fields: null,
        },
      ],
    };
    if (meta.icon_url) result.avatar_url = meta.icon_url;
    return result;
  };
  switch (chatKind(event, payload)) {
    case 'create': {
      const p = payload as CreatePayload;
      const ref = refShortName(p.ref);
      return create(p.sender, `[${p.repository.full_name}] ${p.ref_type} ${ref} created`, '', `${p.repository.html_url}/src/${escapePathSegments(ref)}`, Colors.green);
    }
    case 'delete': {
      const p = payload as DeletePayload;
      const ref = refShortName(p.ref);
      return create(p.sender, `[${p.repository.full_name}] ${p.ref_type} ${ref} deleted`, '', `${p.repository.html_url}/src/${escapePathSegments(ref)}`, Colors.red);
    }
    case 'fork': {
      const p = payload as ForkPayload;
      return create(p.sender, `${p.forkee.full_name} is forked to ${p.repository.full_name}`, '', p.repository.html_url, Colors.green);
    }
    case 'push': {
      const p = payload as PushPayload;
      const branch = refShortName(p.ref);
      let titleLink = p.total_commits === 1 ? (p.commits[0]?.url ?? '') : p.compare_url;
      if (!titleLink) titleLink = `${p.repository.html_url}/src/${escapePathSegments(branch)}`;
      const desc = p.total_commits === 1 ? '1 new commit' : `${p.total_commits} new commits`;
      const text = p.commits.map((c) => `[${c.id.slice(0, 7)}](${c.url}) ${commitSummary(c.message)} - ${c.author.name}`).join('\n');
      return create(p.sender, `[${p.repository.full_name}:${branch}] ${desc}`, text, titleLink, Colors.green);
    }
    case 'issue': {
      const p = payload as IssuePayload;
      const info = issuesInfo(p, noneLinkFormatter, false, rootUrl);
      return create(p.sender, info.text, info.extraMarkdown, p.issue.html_url, info.color);
    }
    case 'issueComment': {
      const p = payload as IssueCommentPayload;
      const info = issueCommentInfo(p, noneLinkFormatter, false, rootUrl);
      return create(p.sender, info.text, p.comment.body, p.comment.html_url, info.color);
    }
    case 'pullRequest': {
      const p = payload as PullRequestPayload;
      const info = pullRequestInfo(p, noneLinkFormatter, false, rootUrl);
      return create(p.sender, info.text, info.extraMarkdown, p.pull_request.html_url, info.color);
    }
    case 'review': {
      const p = payload as PullRequestPayload;
      const action = reviewAction(event);
      if (p.action !== 'reviewed' || !action) return create(p.sender, '', '', p.pull_request.html_url, 0);
      const color = event === 'pull_request_review_approved' ? Colors.green : event === 'pull_request_review_rejected' ? Colors.red : Colors.grey;
      const title = `[${p.repository.full_name}] Pull request review ${action}: #${p.number} ${p.pull_request.title}`;
      return create(p.sender, title, p.review?.content ?? '', p.pull_request.html_url, color);
    }
    case 'repository': {
      const p = payload as RepositoryPayload;
      if (p.action === 'created') return create(p.sender, `[${p.repository.full_name}] Repository created`, '', p.repository.html_url, Colors.green);
      return create(p.sender, `[${p.repository.full_name}] Repository deleted`, '', '', Colors.red);
    }
    case 'release': {
      const p = payload as ReleasePayload;
      const info = releaseInfo(p, noneLinkFormatter, false, rootUrl);
      return create(p.sender, info.text, p.release.body, p.release.html_url, info.color);
    }
    case 'wiki': {
      const p = payload as WikiPayload;
      const info = wikiInfo(p, noneLinkFormatter, false, rootUrl);
      return create(p.sender, info.text, p.action === 'deleted' ? '' : p.comment, `${p.repository.html_url}/wiki/${pathEscape(p.page)}`, info.color);
    }
    case 'package': {
      const p = payload as PackagePayload;
      const info = packageInfo(p, noneLinkFormatter, false, rootUrl);
      return create(p.sender, info.text, '', p.package.html_url, info.color);
    }
    case 'status': {
      const p = payload as CommitStatusPayload;
      const info = statusInfo(p, noneLinkFormatter, false, rootUrl);
      return create(p.sender, info.text, '', p.target_url, info.color);
    }
    default:
      return null;
  }
}
