import {
  canonicalLanguage,
  detectLanguage,
  isBinary,
  isConfiguration,
  isDocumentation,
  isDotFile,
  isGenerated,
  isVendored,
  languageGroup,
  languageType,
} from './linguist.js';

/** A blob of the tree being measured. */
export interface TreeFile {
  path: string;
  size: number;
  oid: string;
}

/** The linguist attributes `.gitattributes` gives a path (absent: unspecified). */
export interface LinguistAttributes {
  vendored?: boolean;
  generated?: boolean;
  documentation?: boolean;
  detectable?: boolean;
  language?: string;
}

/** Gitea's bigFileSize: larger files are detected by name only. */
export const BIG_FILE_SIZE = 1024 * 1024;
/** Gitea's fileSizeLimit: the part of a file detection looks at. */
export const CONTENT_LIMIT = 16 * 1024;

/** What a file's first bytes say of it, before its attributes have their say. */
export interface ContentVerdict {
  generated: boolean;
  binary: boolean;
  detected: string | null;
}

/** What linguist's rules say of a file by its path, and once it has been read, by its first bytes. */
export interface FileVerdict {
  vendored: boolean;
  documentation: boolean;
  /** A dot file or a configuration file: never counted. */
  skipped: boolean;
  /** Absent until a verdict needed the content (or while it could not be read). */
  content?: ContentVerdict;
}

/**
 * Verdicts already reached, by blob and path (neither changes what they say): a push that
 * changes a few files of a large tree has only those read and classified again, and the others
 * cost a lookup each.
 */
export interface VerdictCache {
  get(key: string): FileVerdict | undefined;
  set(key: string, verdict: FileVerdict): unknown;
}

function pathVerdict(path: string): FileVerdict {
  return { vendored: isVendored(path), documentation: isDocumentation(path), skipped: isDotFile(path) || isConfiguration(path) };
}

async function readVerdict(file: TreeFile, read: (file: TreeFile) => Promise<Buffer | null>, verdict: FileVerdict): Promise<ContentVerdict> {
  const data = file.size <= BIG_FILE_SIZE ? await read(file) : Buffer.alloc(0);
  const content = (data ?? Buffer.alloc(0)).subarray(0, CONTENT_LIMIT);
  const found = { generated: isGenerated(file.path, content), binary: isBinary(content), detected: detectLanguage(file.path, content) };
  // A blob that could not be read (a damaged repository) is judged by its name this time only.
  if (data) verdict.content = found;
  return found;
}

/**
 * Gitea's GetLanguageStats over one tree: bytes per language of the files that count. Attributes
 * decide first (vendored, generated and documentation files and undetectable ones are out; a
 * `linguist-language` always counts); then vendored, dot, documentation and configuration files
 * are skipped, as are generated and binary ones; only programming and markup languages count
 * unless `linguist-detectable` says so, and when nothing counts the first other language found does.
 */
export async function languageStats(
  files: TreeFile[],
  attributesOf: (path: string) => LinguistAttributes,
  read: (file: TreeFile) => Promise<Buffer | null>,
  cache?: VerdictCache,
): Promise<Record<string, number>> {
  const sizes = new Map<string, number>();
  const add = (language: string, size: number): void => {
    sizes.set(language, (sizes.get(language) ?? 0) + size);
  };
  const firstExcluded = { language: '', size: 0 };

  for (const file of files) {
    if (file.size === 0) continue;
    const attrs = attributesOf(file.path);
    if (attrs.vendored || attrs.generated || attrs.documentation || attrs.detectable === false) continue;
    if (attrs.language) {
      add(languageGroup(attrs.language) ?? attrs.language, file.size);
      continue;
    }
    const key = `${file.oid}\0${file.path}`;
    let byPath = cache?.get(key);
    if (!byPath) {
      byPath = pathVerdict(file.path);
      cache?.set(key, byPath);
    }
    if ((attrs.vendored === undefined && byPath.vendored) || byPath.skipped || (attrs.documentation === undefined && byPath.documentation)) continue;
    // Awaited only when the content has to be read: a tree of known files is counted in one go.
    const verdict = byPath.content ?? (await readVerdict(file, read, byPath));
    if (attrs.generated === undefined && verdict.generated) continue;
    if (verdict.binary) continue;
    const detected = verdict.detected;
    if (!detected) continue;
    const language = languageGroup(detected) ?? detected;
    const type = languageType(language);
    if (type === 'programming' || type === 'markup' || attrs.detectable === true) add(language, file.size);
    else if (sizes.size === 0 && (firstExcluded.language === '' || firstExcluded.language === language)) {
      firstExcluded.language = language;
      firstExcluded.size += file.size;
    }
  }
  if (sizes.size === 0 && firstExcluded.language !== '') add(firstExcluded.language, firstExcluded.size);
  return merged(sizes);
}

/** Gitea's mergeLanguageStats: names that differ only in case (attribute values) are one language, spelled as linguist does. */
function merged(sizes: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  const spelling = new Map<string, string>();
  for (const [language, size] of sizes) {
    const key = language.toLowerCase();
    const name = spelling.get(key) ?? canonicalLanguage(language) ?? language;
    spelling.set(key, name);
    out[name] = (out[name] ?? 0) + size;
  }
  return out;
}

const ATTRIBUTE_NAMES = [
  'linguist-vendored',
  'linguist-generated',
  'linguist-documentation',
  'linguist-detectable',
  'linguist-language',
  'gitlab-language',
] as const;
export const LINGUIST_ATTRIBUTES: readonly string[] = ATTRIBUTE_NAMES;

/** Gitea's attribute ToBool: set/true, unset/false, anything else unspecified. */
function toBool(value: string | undefined): boolean | undefined {
  if (value === 'set' || value === 'true') return true;
  if (value === 'unset' || value === 'false') return false;
  return undefined;
}

/**
 * Reads `git check-attr -z` output (path, attribute, value triples) into attributes per path.
 * `gitlab-language` stands in for `linguist-language`, without its `?…` options.
 */
export function parseCheckAttr(output: string): Map<string, LinguistAttributes> {
  const raw = new Map<string, Map<string, string>>();
  const parts = output.split('\0');
  for (let i = 0; i + 2 < parts.length; i += 3) {
    const [path, attr, value] = [parts[i]!, parts[i + 1]!, parts[i + 2]!];
    if (value === 'unspecified') continue;
    if (!raw.has(path)) raw.set(path, new Map());
    raw.get(path)!.set(attr, value);
  }
  const out = new Map<string, LinguistAttributes>();
  for (const [path, values] of raw) {
    const language =
      values.get('linguist-language') || values.get('gitlab-language')?.split('?')[0] || undefined;
    out.set(path, {
      vendored: toBool(values.get('linguist-vendored')),
      generated: toBool(values.get('linguist-generated')),
      documentation: toBool(values.get('linguist-documentation')),
      detectable: toBool(values.get('linguist-detectable')),
      language: language === 'set' || language === 'unset' ? undefined : language,
    });
  }
  return out;
}
