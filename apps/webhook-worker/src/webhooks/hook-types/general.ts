import { escapePathSegments, pathEscape } from '@gitforge/contracts';
import type {
  CommitStatusPayload,
  IssueCommentPayload,
  IssuePayload,
  PackagePayload,
  PullRequestPayload,
  ReleasePayload,
  WikiPayload,
} from '@gitforge/contracts';

/** Shared pieces of the chat formats (Gitea's services/webhook/general.go). */

export type LinkFormatter = (url: string, text: string) => string;

export const noneLinkFormatter: LinkFormatter = (_url, text) => text;

export const Colors = {
  green: 0x1ac600,
  greenLight: 0xbfe5bf,
  yellow: 0xffd930,
  grey: 0x4f545c,
  purple: 0x7289da,
  orange: 0xeb6420,
  orangeLight: 0xe68d60,
  red: 0xff3232,
} as const;

export const hexColor = (color: number): string => color.toString(16);

/** Gitea's RefName.ShortName for branches, tags and remotes. */
export function refShortName(ref: string): string {
  for (const prefix of ['refs/heads/', 'refs/tags/', 'refs/remotes/']) {
    if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  }
  return ref;
}

/** Gitea's git.RefURL: the web page of a ref (a short name counts as a branch unless it is a commit id). */
export function refUrl(repoUrl: string, ref: string): string {
  const name = escapePathSegments(refShortName(ref));
  if (ref.startsWith('refs/heads/')) return `${repoUrl}/src/branch/${name}`;
  if (ref.startsWith('refs/tags/')) return `${repoUrl}/src/tag/${name}`;
  if (/^[0-9a-f]{40}$/.test(ref)) return `${repoUrl}/src/commit/${name}`;
  return `${repoUrl}/src/branch/${name}`;
}

const senderSuffix = (login: string, rootUrl: string, link: LinkFormatter): string =>
  ` by ${link(rootUrl + pathEscape(login), login)}`;

export interface TextInfo {
  text: string;
  title: string;
  extraMarkdown: string;
  color: number;
}

export function issuesInfo(p: IssuePayload, link: LinkFormatter, withSender: boolean, rootUrl: string): TextInfo {
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  const title = `#${p.number} ${p.issue.title}`;
  const titleLink = link(`${p.repository.html_url}/issues/${p.number}`, title);
  let text = '';
  let color: number = Colors.yellow;
  switch (p.action) {
    case 'opened':
      text = `[${repoLink}] Issue opened: ${titleLink}`;
      color = Colors.orange;
      break;
    case 'closed':
      text = `[${repoLink}] Issue closed: ${titleLink}`;
      color = Colors.red;
      break;
    case 'reopened':
      text = `[${repoLink}] Issue re-opened: ${titleLink}`;
      break;
    case 'edited':
      text = `[${repoLink}] Issue edited: ${titleLink}`;
      break;
    case 'assigned': {
      const list = (p.issue.assignees ?? []).map((u) => link(rootUrl + pathEscape(u.login), u.login));
      text = `[${repoLink}] Issue assigned to ${list.join(', ')}: ${titleLink}`;
      color = Colors.green;
      break;
    }
    case 'unassigned':
      text = `[${repoLink}] Issue unassigned: ${titleLink}`;
      break;
    case 'label_updated':
      text = `[${repoLink}] Issue labels updated: ${titleLink}`;
      break;
    case 'label_cleared':
      text = `[${repoLink}] Issue labels cleared: ${titleLink}`;
      break;
    case 'synchronized':
      text = `[${repoLink}] Issue synchronized: ${titleLink}`;
      break;
    case 'milestoned': {
      const m = p.issue.milestone;
      text = `[${repoLink}] Issue milestoned to ${link(`${p.repository.html_url}/milestone/${m?.id ?? 0}`, m?.title ?? '')}: ${titleLink}`;
      break;
    }
    case 'demilestoned':
      text = `[${repoLink}] Issue milestone cleared: ${titleLink}`;
      break;
  }
  if (withSender) text += senderSuffix(p.sender.login, rootUrl, link);
  const extraMarkdown = p.action === 'opened' || p.action === 'edited' ? p.issue.body : '';
  return { text, title, extraMarkdown, color };
}

export function pullRequestInfo(p: PullRequestPayload, link: LinkFormatter, withSender: boolean, rootUrl: string): TextInfo {
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  const title = `#${p.number} ${p.pull_request.title}`;
  const titleLink = link(p.pull_request.url, title);
  let text = '';
  let extraMarkdown = '';
  let color: number = Colors.yellow;
  switch (p.action) {
    case 'opened':
      text = `[${repoLink}] Pull request opened: ${titleLink}`;
      extraMarkdown = p.pull_request.body;
      color = Colors.green;
      break;
    case 'closed':
      if (p.pull_request.merged) {
        text = `[${repoLink}] Pull request merged: ${titleLink}`;
        color = Colors.purple;
      } else {
        text = `[${repoLink}] Pull request closed: ${titleLink}`;
        color = Colors.red;
      }
      break;
    case 'reopened':
      text = `[${repoLink}] Pull request re-opened: ${titleLink}`;
      break;
    case 'edited':
      text = `[${repoLink}] Pull request edited: ${titleLink}`;
      extraMarkdown = p.pull_request.body;
      break;
    case 'assigned': {
      const list = (p.pull_request.assignees ?? []).map((u) => link(rootUrl + u.login, u.login));
      text = `[${repoLink}] Pull request assigned to ${list.join(', ')}: ${titleLink}`;
      color = Colors.green;
      break;
    }
    case 'unassigned':
      text = `[${repoLink}] Pull request unassigned: ${titleLink}`;
      break;
    case 'label_updated':
      text = `[${repoLink}] Pull request labels updated: ${titleLink}`;
      break;
    case 'label_cleared':
      text = `[${repoLink}] Pull request labels cleared: ${titleLink}`;
      break;
    case 'synchronized':
      text = `[${repoLink}] Pull request synchronized: ${titleLink}`;
      break;
    case 'milestoned': {
      const m = p.pull_request.milestone;
      text = `[${repoLink}] Pull request milestoned to ${link(`${p.repository.html_url}/milestone/${m?.id ?? 0}`, m?.title ?? '')}: ${titleLink}`;
      break;
    }
    case 'demilestoned':
      text = `[${repoLink}] Pull request milestone cleared: ${titleLink}`;
      break;
    case 'reviewed':
      text = `[${repoLink}] Pull request reviewed: ${titleLink}`;
      extraMarkdown = p.review?.content ?? '';
      break;
    case 'review_requested':
      text = `[${repoLink}] Pull request review requested: ${titleLink}`;
      break;
    case 'review_request_removed':
      text = `[${repoLink}] Pull request review request removed: ${titleLink}`;
      break;
  }
  if (withSender) text += ` by ${link(rootUrl + p.sender.login, p.sender.login)}`;
  return { text, title, extraMarkdown, color };
}

export function releaseInfo(p: ReleasePayload, link: LinkFormatter, withSender: boolean, rootUrl: string): { text: string; color: number } {
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  const refLink = link(`${p.repository.html_url}/releases/tag/${escapePathSegments(p.release.tag_name)}`, p.release.tag_name);
  let text = '';
  let color = 0;
  if (p.action === 'published') [text, color] = [`[${repoLink}] Release created: ${refLink}`, Colors.green];
  else if (p.action === 'updated') [text, color] = [`[${repoLink}] Release updated: ${refLink}`, Colors.yellow];
  else if (p.action === 'deleted') [text, color] = [`[${repoLink}] Release deleted: ${refLink}`, Colors.red];
  if (withSender) text += senderSuffix(p.sender.login, rootUrl, link);
  return { text, color };
}

export function wikiInfo(p: WikiPayload, link: LinkFormatter, withSender: boolean, rootUrl: string): { text: string; color: number } {
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  const pageLink = link(`${p.repository.html_url}/wiki/${pathEscape(p.page)}`, p.page);
  let text = '';
  let color: number = Colors.green;
  if (p.action === 'created') text = `[${repoLink}] New wiki page '${pageLink}'`;
  else if (p.action === 'edited') [text, color] = [`[${repoLink}] Wiki page '${pageLink}' edited`, Colors.yellow];
  else if (p.action === 'deleted') [text, color] = [`[${repoLink}] Wiki page '${pageLink}' deleted`, Colors.red];
  if (p.action !== 'deleted' && p.comment) text += ` (${p.comment})`;
  if (withSender) text += senderSuffix(p.sender.login, rootUrl, link);
  return { text, color };
}

export function issueCommentInfo(p: IssueCommentPayload, link: LinkFormatter, withSender: boolean, rootUrl: string): { text: string; title: string; color: number } {
  const repoLink = link(p.repository.html_url, p.repository.full_name);
  const title = `#${p.issue.number} ${p.issue.title}`;
  const typ = p.is_pull ? 'pull request' : 'issue';
  const titleLink = link(p.is_pull ? p.comment.pull_request_url : p.comment.issue_url, title);
  let text = '';
  let color: number = Colors.yellow;
  if (p.action === 'created') {
    text = `[${repoLink}] New comment on ${typ} ${titleLink}`;
    color = p.is_pull ? Colors.greenLight : Colors.orangeLight;
  } else if (p.action === 'edited') {
    text = `[${repoLink}] Comment edited on ${typ} ${titleLink}`;
  } else if (p.action === 'deleted') {
    text = `[${repoLink}] Comment deleted on ${typ} ${titleLink}`;
    color = Colors.red;
  }
  if (withSender) text += senderSuffix(p.sender.login, rootUrl, link);
  return { text, title, color };
}

export function packageInfo(p: PackagePayload, link: LinkFormatter, withSender: boolean, rootUrl: string): { text: string; color: number } {
  const refLink = link(p.package.html_url, `${p.package.name}:${p.package.version}`);
  let text = '';
  let color = 0;
  if (p.action === 'created') [text, color] = [`Package created: ${refLink}`, Colors.green];
  else if (p.action === 'deleted') [text, color] = [`Package deleted: ${refLink}`, Colors.red];
  if (withSender) text += senderSuffix(p.sender.login, rootUrl, link);
  return { text, color };
}

export function statusInfo(p: CommitStatusPayload, link: LinkFormatter, withSender: boolean, rootUrl: string): { text: string; color: number } {
  const refLink = link(p.target_url, `${p.context} [${p.sha.slice(0, 10)}]`);
  let text = `Commit Status changed: ${refLink} - ${p.description}`;
  if (withSender) text += senderSuffix(p.sender.login, rootUrl, link);
  return { text, color: Colors.green };
}

/**
 * The plain card of an issue or pull request event in the feishu layout (Gitea's getIssuesInfo /
 * getPullRequestInfo): a heading with the action, the link, the poster, the operator, and for
 * (un)assignments and milestones what was done.
 */
export function issueCardLines(p: IssuePayload | PullRequestPayload): { lines: string[]; body: string } {
  const isPull = 'pull_request' in p;
  const it = isPull ? p.pull_request : p.issue;
  const kind = isPull ? 'PullRequest' : 'Issue';
  const title = `[${kind}-${p.repository.full_name} #${it.number}]: ${p.action}\n${it.title}`;
  const assignees = (it.assignees ?? []).map((u) => u.login);
  let result = '';
  if (p.action === 'assigned' && assignees.length > 0) result = `${p.sender.login} assign this to ${assignees[assignees.length - 1]}`;
  else if (p.action === 'unassigned') result = `${p.sender.login} unassigned this for someone`;
  else if (p.action === 'milestoned') result = `${p.repository.html_url}/milestone/${it.milestone?.id ?? 0}`;
  const lines = [title, it.html_url, `${kind} by ${it.user.login}`, `Operator: ${p.sender.login}`];
  if (assignees.length > 0) {
    if (p.action === 'assigned' || p.action === 'unassigned' || p.action === 'milestoned') lines.push(result);
    lines.push(`Assignees: ${assignees.join(', ')}`);
  }
  return { lines, body: it.body };
}

/** The plain card of a comment event in the feishu layout (Gitea's getIssuesCommentInfo). */
export function commentCardLines(p: IssueCommentPayload): string[] {
  return [
    `[Comment-${p.repository.full_name} #${p.issue.number}]: ${p.action}\n${p.issue.title}`,
    p.issue.html_url,
    `${p.is_pull ? 'PullRequest' : 'Issue'} by ${p.issue.user.login}`,
    `Operator: ${p.sender.login}`,
  ];
}

/** The review verdict word of a review event type. */
export function reviewAction(event: string): string | null {
  switch (event) {
    case 'pull_request_review_approved':
      return 'approved';
    case 'pull_request_review_rejected':
      return 'rejected';
    case 'pull_request_review_comment':
      return 'comment';
    default:
      return null;
  }
}

/** The converter method a hook event type goes to (Gitea's newPayload switch). */
export type ChatKind =
  | 'create'
  | 'delete'
  | 'fork'
  | 'push'
  | 'issue'
  | 'issueComment'
  | 'pullRequest'
  | 'review'
  | 'repository'
  | 'release'
  | 'wiki'
  | 'package'
  | 'status';

/**
 * The line a release, wiki, package or status event reads as (Gitea's get*PayloadInfo with the
 * sender), for the formats that send it as it is; null for any other kind.
 */
export function oneLineInfo(kind: ChatKind | null, payload: object, link: LinkFormatter, rootUrl: string): string | null {
  switch (kind) {
    case 'release':
      return releaseInfo(payload as ReleasePayload, link, true, rootUrl).text;
    case 'wiki':
      return wikiInfo(payload as WikiPayload, link, true, rootUrl).text;
    case 'package':
      return packageInfo(payload as PackagePayload, link, true, rootUrl).text;
    case 'status':
      return statusInfo(payload as CommitStatusPayload, link, true, rootUrl).text;
    default:
      return null;
  }
}

export function chatKind(event: string, payload: object): ChatKind | null {
  switch (event) {
    case 'create':
    case 'delete':
    case 'fork':
    case 'push':
    case 'repository':
    case 'release':
    case 'wiki':
    case 'package':
    case 'status':
      return event;
    case 'issues':
    case 'issue_assign':
    case 'issue_label':
    case 'issue_milestone':
      return 'issue';
    case 'issue_comment':
    case 'pull_request_comment':
      return 'comment' in payload ? 'issueComment' : 'pullRequest';
    case 'pull_request':
    case 'pull_request_assign':
    case 'pull_request_label':
    case 'pull_request_milestone':
    case 'pull_request_sync':
    case 'pull_request_review_request':
      return 'pullRequest';
    case 'pull_request_review_approved':
    case 'pull_request_review_rejected':
    case 'pull_request_review_comment':
      return 'review';
    default:
      return null;
  }
}
