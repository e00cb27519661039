import type { GitTreeEntry } from '../git/git-objects.js';

/**
 * What license a repository's license file holds, in the spirit of Gitea's licenseclassifier
 * (a similarity threshold of 0.85 against every license text it ships), without its n-gram
 * classifier: the file and each SPDX text become sets of word pairs (case, punctuation and line
 * breaks ignored; a template's placeholders such as `<year>` or `[name of copyright owner]` left
 * out), and the licenses whose pairs are most like the file's (Dice's coefficient, at least
 * {@link THRESHOLD}) are the answer, several only when their texts are the same (GPL-3.0-only and
 * GPL-3.0-or-later). `SPDX-License-Identifier:` lines, when the file has them, name the licenses
 * instead; they are the one way a file declares more than one.
 */

/** Gitea's classifier threshold. */
const THRESHOLD = 0.85;
/** Dice's coefficient of two sets cannot reach THRESHOLD when the smaller has fewer than this share of the larger's elements. */
const SIZE_RATIO = THRESHOLD / (2 - THRESHOLD);

/** Root file names that hold a license (case ignored), and Gitea's preference among their extensions. */
const LICENSE_NAMES = ['license', 'licence', 'copying'];
const EXTENSIONS = ['.md', '.txt', ''];

/**
 * The root entry Gitea reads licenses from (FindFileInEntries for licenses): LICENSE, LICENCE or
 * COPYING (any case), preferring `.md`, then `.txt`, then no extension, then any other extension;
 * among equals the last by name. Symlinks are left out: their blob is a path, not a text.
 */
export function findLicenseFile(entries: readonly GitTreeEntry[]): GitTreeEntry | null {
  let best: { entry: GitTreeEntry; rank: number } | null = null;
  for (const entry of entries) {
    if (entry.mode !== '100644' && entry.mode !== '100755') continue;
    const rank = licenseNameRank(entry.name);
    if (rank === null) continue;
    if (!best || rank < best.rank || (rank === best.rank && entry.name.localeCompare(best.entry.name, 'en', { numeric: true }) > 0)) {
      best = { entry, rank };
    }
  }
  return best?.entry ?? null;
}

function licenseNameRank(name: string): number | null {
  const lower = name.toLowerCase();
  const base = LICENSE_NAMES.find((b) => lower.startsWith(b));
  if (!base) return null;
  const rest = lower.slice(base.length);
  const known = EXTENSIONS.indexOf(rest);
  if (known >= 0) return known;
  return rest.length > 1 && rest.startsWith('.') ? EXTENSIONS.length : null;
}

/** A template's placeholders: `<…>`, `[…]` and `{…}` spans within a line. */
const PLACEHOLDER = /<[^<>\n]{1,200}>|\[[^[\]\n]{1,200}\]|\{[^{}\n]{1,40}\}/g;
/** Where a placeholder was: no word pair spans it. */
const GAP = '';

/** The words of a text, lower case ("licence" read as "license"); in a template, {@link GAP} for each placeholder. */
function words(text: string, template: boolean): string[] {
  const segments = template ? text.split(PLACEHOLDER) : [text];
  return segments.flatMap((segment, i) => {
    const list = segment.toLowerCase().replace(/licen[cs]e/g, 'license').match(/[a-z0-9]+/g) ?? [];
    return i === 0 ? list : [GAP, ...list];
  });
}

/**
 * The SPDX ids the file's `SPDX-License-Identifier:` lines name that `known` accepts (sorted,
 * once each); operators and the exceptions after WITH are not licenses.
 */
export function declaredLicenses(text: string, known: (id: string) => boolean): string[] {
  const found = new Set<string>();
  for (const [, expression] of text.matchAll(/SPDX-License-Identifier:[ \t]*([^\r\n]*)/g)) {
    const tokens = expression!.split(/[\s()]+/).filter(Boolean);
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (/^with$/i.test(token)) i++;
      else if (!/^(and|or)$/i.test(token) && known(token)) found.add(token);
    }
  }
  return [...found].sort();
}

interface Candidate {
  key: string;
  /** Sorted distinct word-pair ids. */
  pairs: Float64Array;
}

/** Detects licenses against a fixed set of license texts; building it reads them all once. */
export class LicenseMatcher {
  private readonly vocabulary = new Map<string, number>();
  private readonly candidates: Candidate[] = [];

  /** `templates`: each license's key and text (placeholders as the SPDX list writes them). */
  constructor(templates: Iterable<readonly [string, string]> = []) {
    for (const [key, text] of templates) this.add(key, text);
  }

  /**
   * A matcher of the licenses `keys` names, whose texts `text` reads, built in slices of about
   * `sliceMs` of CPU with the event loop let go between them: all of SPDX's texts take the better
   * part of a second to index, which in the embedded layout's one process would hold up every
   * request meanwhile.
   */
  static async build(keys: readonly string[], text: (key: string) => string | undefined, sliceMs = 10): Promise<LicenseMatcher> {
    const matcher = new LicenseMatcher();
    let sliceStart = performance.now();
    for (const key of keys) {
      const body = text(key);
      if (body !== undefined) matcher.add(key, body);
      if (performance.now() - sliceStart >= sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    return matcher;
  }

  private add(key: string, text: string): void {
    for (const variant of variants(text)) {
      const pairs = this.pairs(words(variant, true), true);
      if (pairs.length > 0) this.candidates.push({ key, pairs });
    }
  }

  /** The licenses the text most resembles, sorted; none when nothing reaches the threshold. */
  detect(text: string): string[] {
    const scores = this.scores(text);
    const best = Math.max(THRESHOLD, ...scores.values());
    return [...scores].filter(([, score]) => score >= best).map(([key]) => key).sort();
  }

  /** Each license's best score over its variants, for the licenses that can reach the threshold. */
  scores(text: string): Map<string, number> {
    const pairs = this.pairs(words(text, false), false);
    const scores = new Map<string, number>();
    if (pairs.length === 0) return scores;
    for (const c of this.candidates) {
      const [small, large] = c.pairs.length < pairs.length ? [c.pairs.length, pairs.length] : [pairs.length, c.pairs.length];
      if (small < large * SIZE_RATIO) continue;
      const score = (2 * intersectionSize(c.pairs, pairs)) / (c.pairs.length + pairs.length);
      if (score > (scores.get(c.key) ?? 0)) scores.set(c.key, score);
    }
    return scores;
  }

  /**
   * Distinct adjacent word pairs as numbers (two word ids). A text being detected does not grow
   * the vocabulary: its other words get ids of their own for this call only.
   */
  private pairs(list: string[], learn: boolean): Float64Array {
    const ids: number[] = [];
    const local = new Map<string, number>();
    for (const w of list) {
      if (w === GAP) {
        ids.push(-1);
        continue;
      }
      let id = this.vocabulary.get(w) ?? local.get(w);
      if (id === undefined) {
        id = this.vocabulary.size + local.size + 1;
        (learn ? this.vocabulary : local).set(w, id);
      }
      ids.push(id);
    }
    const keys = new Set<number>();
    for (let i = 1; i < ids.length; i++) {
      const a = ids[i - 1]!;
      const b = ids[i]!;
      if (a >= 0 && b >= 0) keys.add(a * 0x200000 + b);
    }
    return Float64Array.from(keys).sort();
  }
}

/** Where the terms of the GPL family and Apache-2.0 end; what follows (how to apply them) is left out of many copies. */
const END_OF_TERMS = /END OF TERMS AND CONDITIONS/i;

/** A template's text, and without its how-to-apply appendix when it has one. */
function variants(text: string): string[] {
  const end = END_OF_TERMS.exec(text);
  return end ? [text, text.slice(0, end.index + end[0].length)] : [text];
}

function intersectionSize(a: Float64Array, b: Float64Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      n++;
      i++;
      j++;
    }
  }
  return n;
}
