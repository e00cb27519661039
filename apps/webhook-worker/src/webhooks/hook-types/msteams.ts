import { escapePathSegments, pathEscape } from '@gitforge/contracts';
import type { Repository, User } from '@gitforge/contracts';
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
  hexColor,
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

interface MSTeamsFact {
  name: string;
  value: string;
}

export interface MSTeamsPayload {
  '@type': 'MessageCard';
  '@context': string;
  themeColor: string;
  title: string;
  summary: string;
  sections: Array<{ activityTitle: string; activitySubtitle: string; activityImage: string; facts: MSTeamsFact[]; text: string }>;
  potentialAction: Array<{ '@type': 'OpenUri'; name: string; targets: Array<{ os: string; uri: string }> }>;
}

function card(repo: Repository | null, sender: User, title: string, text: string, target: string, color: number, fact: MSTeamsFact | null): MSTeamsPayload {
  const facts: MSTeamsFact[] = [];
  if (repo) facts.push({ name: 'Repository:', value: repo.full_name });
  if (fact) facts.push(fact);
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    themeColor: hexColor(color),
    title,
    summary: title,
    sections: [{ activityTitle: sender.full_name, activitySubtitle: sender.login, activityImage: sender.avatar_url, facts, text }],
    // Gitea's label; Teams users of Gitea hooks recognise the button by it.
    potentialAction: [{ '@type': 'OpenUri', name: 'View in Gitea', targets: [{ os: 'default', uri: target }] }],
  };
}

/** Gitea's Microsoft Teams MessageCard format (services/webhook/msteams.go); null for an event it does not render. */
export function msteamsPayload(event: string, payload: object, rootUrl: string): MSTeamsPayload | null {
  switch (chatKind(event, payload)) {
    case 'create': {
      const p = payload as CreatePayload;
      const ref = refShortName(p.ref);
      return card(p.repository, p.sender, `[${p.repository.full_name}] ${p.ref_type} ${ref} created`, '', `${p.repository.html_url}/src/${escapePathSegments(ref)}`, Colors.green, {
        name: `${p.ref_type}:`,
        value: ref,
      });
    }
    case 'delete': {
      const p = payload as DeletePayload;
      const ref = refShortName(p.ref);
      return card(p.repository, p.sender, `[${p.repository.full_name}] ${p.ref_type} ${ref} deleted`, '', `${p.repository.html_url}/src/${escapePathSegments(ref)}`, Colors.yellow, {
        name: `${p.ref_type}:`,
        value: ref,
      });
    }
    case 'fork': {
      const p = payload as ForkPayload;
      return card(p.repository, p.sender, `${p.forkee.full_name} is forked to ${p.repository.full_name}`, '', p.repository.html_url, Colors.green, {
        name: 'Forkee:',
        value: p.forkee.full_name,
      });
    }
    case 'push': {
      const p = payload as PushPayload;
      const branch = refShortName(p.ref);
      let titleLink = p.total_commits === 1 ? (p.commits[0]?.url ?? '') : p.compare_url;
      if (!titleLink) titleLink = `${p.repository.html_url}/src/${escapePathSegments(branch)}`;
      const desc = p.total_commits === 1 ? '1 new commit' : `${p.total_commits} new commits`;
      const text = p.commits.map((c) => `[${c.id.slice(0, 7)}](${c.url}) ${c.message.replace(/[\r\n]+$/, '')} - ${c.author.name}`).join('\n\n');
      return card(p.repository, p.sender, `[${p.repository.full_name}:${branch}] ${desc}`, text, titleLink, Colors.green, {
        name: 'Commit count:',
        value: String(p.total_commits),
      });
    }
    case 'issue': {
      const p = payload as IssuePayload;
      const info = issuesInfo(p, noneLinkFormatter, false, rootUrl);
      return card(p.repository, p.sender, info.text, info.extraMarkdown, p.issue.html_url, info.color, { name: 'Issue #:', value: String(p.issue.id) });
    }
    case 'issueComment': {
      const p = payload as IssueCommentPayload;
      const info = issueCommentInfo(p, noneLinkFormatter, false, rootUrl);
      return card(p.repository, p.sender, info.text, p.comment.body, p.comment.html_url, info.color, { name: 'Issue #:', value: String(p.issue.id) });
    }
    case 'pullRequest': {
      const p = payload as PullRequestPayload;
      const info = pullRequestInfo(p, noneLinkFormatter, false, rootUrl);
      return card(p.repository, p.sender, info.text, info.extraMarkdown, p.pull_request.html_url, info.color, {
        name: 'Pull request #:',
        value: String(p.pull_request.id),
      });
    }
    case 'review': {
      const p = payload as PullRequestPayload;
      const action = reviewAction(event);
      const color = event === 'pull_request_review_approved' ? Colors.green : event === 'pull_request_review_rejected' ? Colors.red : Colors.grey;
      const title = p.action === 'reviewed' && action ? `[${p.repository.full_name}] Pull request review ${action}: #${p.number} ${p.pull_request.title}` : '';
      return card(p.repository, p.sender, title, p.review?.content ?? '', p.pull_request.html_url, title ? color : 0, {
        name: 'Pull request #:',
        value: String(p.pull_request.id),
      });
    }
    case 'repository': {
      const p = payload as RepositoryPayload;
      if (p.action === 'created') return card(p.repository, p.sender, `[${p.repository.full_name}] Repository created`, '', p.repository.html_url, Colors.green, null);
      return card(p.repository, p.sender, `[${p.repository.full_name}] Repository deleted`, '', '', Colors.yellow, null);
    }
    case 'release': {
      const p = payload as ReleasePayload;
      const info = releaseInfo(p, noneLinkFormatter, false, rootUrl);
      return card(p.repository, p.sender, info.text, '', p.release.html_url, info.color, { name: 'Tag:', value: p.release.tag_name });
    }
    case 'wiki': {
      const p = payload as WikiPayload;
      const info = wikiInfo(p, noneLinkFormatter, false, rootUrl);
      return card(p.repository, p.sender, info.text, '', `${p.repository.html_url}/wiki/${pathEscape(p.page)}`, info.color, {
        name: 'Repository:',
        value: p.repository.full_name,
      });
    }
    case 'package': {
      const p = payload as PackagePayload;
      const info = packageInfo(p, noneLinkFormatter, false, rootUrl);
      return card(p.repository, p.sender, info.text, '', p.package.html_url, info.color, { name: 'Package:', value: p.package.name });
    }
    case 'status': {
      const p = payload as CommitStatusPayload;
      const info = statusInfo(p, noneLinkFormatter, false, rootUrl);
      return card(p.repository, p.sender, info.text, '', p.target_url, info.color, { name: 'CommitStatus:', value: p.context });
    }
    default:
      return null;
  }
}
