/**
 * References to issues and pulls in free text (commit messages, a pull's title and body), as
 * Gitea's modules/references finds them: `#12` or `!12` in the same repository, `owner/name#12` in
 * another, each alone between spaces, brackets or closing punctuation. A reference right after a
 * keyword of Gitea's (`closes`, `fixes`, `resolves` and their forms; `reopens` and its forms),
 * optionally followed by a colon, carries that action.
 */

export type ReferenceAction = 'none' | 'closes' | 'reopens';

export interface IssueReference {
  /** With `name`, the repository of another owner or name; both absent for the text's own repository. */
  owner?: string;
  name?: string;
  index: number;
  action: ReferenceAction;
}

const CLOSE_WORDS = ['close', 'closes', 'closed', 'fix', 'fixes', 'fixed', 'resolve', 'resolves', 'resolved'];
const REOPEN_WORDS = ['reopen', 'reopens', 'reopened'];

/** What may stand right before and right after a reference (the end is looked at, not taken, so `#1 #2` finds both). */
const BEFORE = String.raw`(?:\s|^|\(|\[)`;
const AFTER = String.raw`(?=\s|$|\)|\]|[:;,.?!](?:\s|$))`;
/** A reference: an optional `owner/name`, then `#` or `!` and the number. */
const REFERENCE = new RegExp(`${BEFORE}((?:([0-9a-zA-Z_.-]+)/([0-9a-zA-Z_.-]+))?[#!]([0-9]+))${AFTER}`, 'gd');

const keywordsBefore = (words: string[]): RegExp => new RegExp(String.raw`(?:\s|^|\(|\[)(?:${words.join('|')}):? $`, 'i');
const CLOSES = keywordsBefore(CLOSE_WORDS);
const REOPENS = keywordsBefore(REOPEN_WORDS);

/** Every reference in `text`, in order of appearance, with the action of the keyword before it. */
export function findIssueReferences(text: string): IssueReference[] {
  const found: IssueReference[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const index = Number(match[4]);
    if (!Number.isSafeInteger(index) || index <= 0) continue;
    // The keyword, if any, ends right before the reference itself (its `owner/name` or `#`).
    const before = text.slice(0, match.indices![1]![0]);
    const action: ReferenceAction = CLOSES.test(before) ? 'closes' : REOPENS.test(before) ? 'reopens' : 'none';
    found.push({ ...(match[2] && match[3] ? { owner: match[2], name: match[3] } : {}), index, action });
  }
  return found;
}

/** A fence's opening or closing line: up to three spaces, then three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** An inline code span: a run of backticks, then anything up to the same run. */
const CODE_SPAN = /(`+)[^]*?\1/g;

/**
 * The references in markdown (an issue's body, a comment), as Gitea's
 * FindAllIssueReferencesMarkdown finds them: not inside fenced code blocks or code spans.
 */
export function findIssueReferencesInMarkdown(text: string): IssueReference[] {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const opened = FENCE.exec(line);
    if (fence === null && opened) fence = opened[1]!;
    else if (fence !== null && opened && opened[1]![0] === fence[0] && opened[1]!.length >= fence.length && line.trim() === opened[1]) fence = null;
    else if (fence === null) kept.push(line.replace(CODE_SPAN, ' '));
  }
  return findIssueReferences(kept.join('\n'));
}
