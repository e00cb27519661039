import { definePatterns } from './patterns.js';

/**
 * issue-service's patterns. Params name the repository (`owner`, `repo`) and the issue
 * (`index`) as the routes do; the service checks access itself.
 */
export const IssuePatterns = definePatterns('issue', {
  /** `POST /repos/{o}/{r}/issues`. */
  create: 'issues.create',
  /** `GET /repos/{o}/{r}/issues` with Gitea's filters (state, labels, q, type, milestones, since, before, created_by, assigned_by, mentioned_by). */
  list: 'issues.list',
  /** `GET /repos/issues/search`: issues of every repository the actor can read. */
  search: 'issues.search',
  get: 'issues.get',
  edit: 'issues.edit',
  delete: 'issues.delete',
  /** `POST …/issues/{index}/deadline`. */
  editDeadline: 'issues.deadline.edit',
  lock: 'issues.lock',
  unlock: 'issues.unlock',
  pin: 'issues.pin',
  unpin: 'issues.unpin',
  movePin: 'issues.pin.move',
  /** `GET /repos/{o}/{r}/issues/pinned`. */
  listPinned: 'issues.pinned.list',
  /** `GET /repos/{o}/{r}/new_pin_allowed`: NewIssuePinsAllowed. */
  newPinAllowed: 'issues.pinned.allowed',
  addAssignees: 'issues.assignees.add',
  /** `GET …/issues/{index}/assignees/{assignee}`: answers when that user may be assigned the issue, else 404 (Gitea's CheckIssueAssignee). */
  checkAssignee: 'issues.assignees.check',
  removeAssignees: 'issues.assignees.remove',
});

/** Repository and organization labels, and the labels of an issue. */
export const LabelPatterns = definePatterns('issue', {
  listForRepo: 'labels.repo.list',
  getForRepo: 'labels.repo.get',
  createForRepo: 'labels.repo.create',
  editForRepo: 'labels.repo.edit',
  deleteForRepo: 'labels.repo.delete',
  /** Internal: a new repository's labels from a template (CreateRepoOption's `issue_labels`), asked by repo-service once the repository exists. */
  initializeForRepo: 'labels.repo.initialize',
  listForOrg: 'labels.org.list',
  getForOrg: 'labels.org.get',
  createForOrg: 'labels.org.create',
  editForOrg: 'labels.org.edit',
  deleteForOrg: 'labels.org.delete',
  listForIssue: 'issues.labels.list',
  addToIssue: 'issues.labels.add',
  replaceOnIssue: 'issues.labels.replace',
  removeFromIssue: 'issues.labels.remove',
  clearOnIssue: 'issues.labels.clear',
});

export const MilestonePatterns = definePatterns('issue', {
  list: 'milestones.list',
  /** By id, or by title when the parameter is not a number (Gitea's getMilestoneByIDOrName). */
  get: 'milestones.get',
  create: 'milestones.create',
  edit: 'milestones.edit',
  delete: 'milestones.delete',
});

export const CommentPatterns = definePatterns('issue', {
  listForIssue: 'issues.comments.list',
  listForRepo: 'issues.comments.listForRepo',
  get: 'issues.comments.get',
  create: 'issues.comments.create',
  edit: 'issues.comments.edit',
  delete: 'issues.comments.delete',
  /** `GET …/issues/{index}/timeline`. */
  timeline: 'issues.timeline',
});

/** Issue and comment assets (the file bytes go through issue-service's own HTTP listener). */
export const AttachmentPatterns = definePatterns('issue', {
  listForIssue: 'issues.assets.list',
  getForIssue: 'issues.assets.get',
  editForIssue: 'issues.assets.edit',
  deleteForIssue: 'issues.assets.delete',
  listForComment: 'issues.comments.assets.list',
  getForComment: 'issues.comments.assets.get',
  editForComment: 'issues.comments.assets.edit',
  deleteForComment: 'issues.comments.assets.delete',
  /** `GET /settings/attachment`: the upload limits this service enforces. */
  settings: 'issues.assets.settings',
});

export const TrackedTimePatterns = definePatterns('issue', {
  listForIssue: 'issues.times.list',
  add: 'issues.times.add',
  reset: 'issues.times.reset',
  delete: 'issues.times.delete',
  listForRepo: 'times.repo.list',
  /** Deprecated `GET /repos/{owner}/{repo}/times/{user}`: every time one user logged in a repository. */
  listForRepoUser: 'times.repo.user.list',
  listForActor: 'times.actor.list',
  startStopwatch: 'issues.stopwatch.start',
  stopStopwatch: 'issues.stopwatch.stop',
  deleteStopwatch: 'issues.stopwatch.delete',
  listStopwatches: 'stopwatches.actor.list',
});

export const ReactionPatterns = definePatterns('issue', {
  listForIssue: 'issues.reactions.list',
  addToIssue: 'issues.reactions.add',
  removeFromIssue: 'issues.reactions.remove',
  listForComment: 'issues.comments.reactions.list',
  addToComment: 'issues.comments.reactions.add',
  removeFromComment: 'issues.comments.reactions.remove',
});

export const IssueSubscriptionPatterns = definePatterns('issue', {
  list: 'issues.subscriptions.list',
  check: 'issues.subscriptions.check',
  add: 'issues.subscriptions.add',
  remove: 'issues.subscriptions.remove',
  /** For the notification projector: who takes part in an issue (body `{issueId}`), IssueParticipants. */
  participants: 'issues.subscriptions.participants',
});

/** Repository and organization projects with their columns (gitforge's API on Gitea's project model). */
export const ProjectPatterns = definePatterns('issue', {
  listForRepo: 'projects.repo.list',
  createForRepo: 'projects.repo.create',
  listForOrg: 'projects.org.list',
  createForOrg: 'projects.org.create',
  get: 'projects.get',
  edit: 'projects.edit',
  delete: 'projects.delete',
  listColumns: 'projects.columns.list',
  createColumn: 'projects.columns.create',
  editColumn: 'projects.columns.edit',
  deleteColumn: 'projects.columns.delete',
  listColumnIssues: 'projects.columns.issues.list',
  /** Adds an issue to a project (its default column) or moves it to another column. */
  moveIssue: 'projects.issues.move',
  removeIssue: 'projects.issues.remove',
});

/** Issue dependencies: `dependencies` are the issues that block an issue, `blocks` those it blocks. */
export const IssueDependencyPatterns = definePatterns('issue', {
  listDependencies: 'issues.dependencies.list',
  addDependency: 'issues.dependencies.add',
  removeDependency: 'issues.dependencies.remove',
  listBlocks: 'issues.blocks.list',
  addBlock: 'issues.blocks.add',
  removeBlock: 'issues.blocks.remove',
});

/** `POST /markdown`, `/markdown/raw` and `/markup` (body MarkupOption): the HTML, as a string. */
export const MarkupPatterns = definePatterns('issue', {
  render: 'markup.render',
});
