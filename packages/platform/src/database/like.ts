import { searchKeyword } from '@gitforge/contracts';
/**
 * A LIKE pattern that finds `text` anywhere in a lower-cased column, its `%`, `_` and `\`
 * matched literally. Compare with `LOWER(column) LIKE :pattern ESCAPE '\'` (both engines).
 */
export function containsPattern(text: string): string {
  searchKeyword(text);
  return `%${escapeLike(text.toLowerCase())}%`;
}

/** `text` with LIKE's `%`, `_` and `\` escaped, for a pattern compared with `ESCAPE '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
