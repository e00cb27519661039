/** Gitea's `[ui] CODE_COMMENT_LINES`: the lines of diff kept above a commented line. */
export const CODE_COMMENT_LINES = 4;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** The path a `diff --git` section is about: its new name, or its old one when deleted. */
function sectionPath(lines: string[]): string | null {
  let path: string | null = null;
  for (const line of lines) {
    if (line.startsWith('+++ ') && line !== '+++ /dev/null') return line.slice(line.startsWith('+++ b/') ? 6 : 4);
    if (line.startsWith('--- ') && line !== '--- /dev/null') path = line.slice(line.startsWith('--- a/') ? 6 : 4);
    if (line.startsWith('@@')) break;
  }
  if (path !== null) return path;
  // No ---/+++ lines (a mode change, an empty file): `diff --git a/x b/x`.
  const m = /^diff --git a\/(.*) b\/(.*)$/.exec(lines[0] ?? '');
  return m ? m[2]! : null;
}

/** The section of a whole diff (`git diff base..head`) about one file, or '' when it is not changed. */
export function fileDiff(diff: string, path: string): string {
  const lines = diff.split('\n');
  let start = -1;
  for (let i = 0; i <= lines.length; i++) {
    const boundary = i === lines.length || lines[i]!.startsWith('diff --git ');
    if (!boundary) continue;
    if (start >= 0) {
      const section = lines.slice(start, i);
      if (sectionPath(section) === path) return section.join('\n');
    }
    start = i;
  }
  return '';
}

/**
 * Gitea's CutDiffAroundLine: of a one-file diff, the file's headers and the hunk holding `line`
 * (of the base side when `old`) cut to the `count` lines ending at it, with its hunk header
 * recomputed. '' when no hunk holds the line.
 */
export function cutDiffAroundLine(diff: string, line: number, old: boolean, count = CODE_COMMENT_LINES): string {
  if (line === 0 || count === 0 || diff === '') return '';
  const headers: string[] = [];
  const hunk: string[] = [];
  let current = 0;
  let other = 0;
  let inHunk = false;
  for (const lof of diff.split('\n')) {
    const header = lof.startsWith('diff --git ') || (!inHunk && (lof.startsWith('---') || lof.startsWith('+++')));
    if (header) {
      if (lof.startsWith('diff --git ')) inHunk = false;
      if (hunk.length === 0) headers.push(lof);
      continue;
    }
    // `current` is the number of the next line on the commented side: past it, the hunk is cut.
    if (current > line) break;
    if (lof.startsWith('@@')) {
      inHunk = true;
      if (hunk.length > 0) break;
      const m = HUNK.exec(lof);
      if (!m) continue;
      // A count left out reads as 0, as Gitea reads it.
      const [oldBegin, oldCount, newBegin, newCount] = [Number(m[1]), Number(m[2] ?? 0), Number(m[3]), Number(m[4] ?? 0)];
      const begin = old ? oldBegin : newBegin;
      const end = begin + (old ? oldCount : newCount);
      if (begin <= line && end >= line) {
        hunk.push(lof);
        current = begin;
        other = old ? newBegin : oldBegin;
      }
      continue;
    }
    if (hunk.length === 0) continue;
    hunk.push(lof);
    const mark = lof[0];
    if (mark === '\\') continue;
    if (mark === '+') {
      if (old) other++;
      else current++;
    } else if (mark === '-') {
      if (old) current++;
      else other++;
    } else {
      current++;
      other++;
    }
  }
  if (hunk.length === 0) return '';
  const body = hunk.slice(1);
  if (body.length <= count) return [...headers, ...hunk].join('\n');
  const kept = body.slice(body.length - count);
  // Count back from where the kept lines end, on both sides.
  let oldEnd = old ? current : other;
  let newEnd = old ? other : current;
  let oldLines = 0;
  let newLines = 0;
  for (const l of kept) {
    if (l[0] === '+') newLines++;
    else if (l[0] === '-') oldLines++;
    else if (l[0] !== '\\') {
      oldLines++;
      newLines++;
    }
  }
  oldEnd -= oldLines;
  newEnd -= newLines;
  return [...headers, `@@ -${oldEnd},${oldLines} +${newEnd},${newLines} @@`, ...kept].join('\n');
}

/** Gitea's patch2diff: a stored patch's hunk without the file headers (PullReviewComment.diff_hunk). */
export function diffHunkOf(patch: string): string {
  const at = patch.indexOf('\n@@');
  return at >= 0 ? patch.slice(at + 1) : '';
}
