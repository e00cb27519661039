import { Injectable } from '@nestjs/common';
import { parseBuffer, type SectionBody } from 'editorconfig';
import {
  compileEditorConfigGlobs,
  notFound,
  type Actor,
  type EditorConfigDefinition,
  type IssueConfig,
  type IssueConfigValidation,
  type IssueTemplate,
  type IssueTemplates,
  type Pattern,
} from '@gitforge/contracts';
import { Lru, PlatformConfig } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { codeReader, type RepoView } from '../contents/repo-view.js';
import { requireTreePath } from '../contents/tree-path.js';
import { GitObjects, type GitCommit } from '../git/git-objects.js';
import { Refs } from '../git/refs.js';
import { ISSUE_CONFIG_PATHS, ISSUE_TEMPLATE_DIRS, parseIssueConfig, parseIssueTemplate, TemplateError, templateType } from './issue-template.parser.js';

/** Gitea's [ui] MAX_DISPLAY_FILE_SIZE: a larger issue template is not read. */
const MAX_DISPLAY_FILE_SIZE = 8 * 1024 * 1024;
/**
 * A larger `.editorconfig` is not read (404, as a missing one): every section's glob is compiled,
 * and real files are a few kilobytes. Gitea has no such limit.
 */
const MAX_EDITORCONFIG_BYTES = 256 * 1024;
/** The properties whose values EditorConfig compares case-insensitively (lower-cased as the library does). */
const EDITORCONFIG_KNOWN = new Set(['end_of_line', 'indent_style', 'indent_size', 'insert_final_newline', 'trim_trailing_whitespace', 'charset']);
/** Gitea reads at most this much of the issue config. */
const MAX_ISSUE_CONFIG_BYTES = 1024 * 1024;
/** The `.editorconfig` properties in Gitea's answer (its Definition's JSON fields), in its order. */
const EDITORCONFIG_FIELDS = ['charset', 'indent_style', 'indent_size', 'end_of_line'];
/**
 * Compiled `.editorconfig` files kept, weighed in characters of regular expression plus some per
 * section: an RE2 program takes about 160 bytes of heap per character and kilobytes per section,
 * so this holds at most some 40 MB, and a few hundred ordinary files.
 */
const EDITORCONFIG_CACHE_WEIGHT = 256 * 1024;
const EDITORCONFIG_SECTION_WEIGHT = 64;

/** Files of a branch that shape the API: issue templates, the issue config, `.editorconfig`. */
@Injectable()
export class RepoFilesService {
  constructor(
    private readonly access: RepoAccessService,
    private readonly objects: GitObjects,
    private readonly refs: Refs,
    private readonly config: PlatformConfig,
  ) {}

  /** Compiled `.editorconfig` files by repository and blob: each is compiled once, not on every request for one of its files. */
  private readonly editorconfigs = new Lru<string, EditorConfigFile>(EDITORCONFIG_CACHE_WEIGHT, (file) => file.weight);

  /** `GET …/issue_templates`: the valid templates of every template directory of the default branch. */
  async issueTemplates(actor: Actor | null, owner: string, repo: string): Promise<IssueTemplates> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const result: IssueTemplates = { templates: [], invalid: 0 };
    const commit = await this.defaultBranchCommit(view);
    if (!commit) return result;
    const found: IssueTemplate[] = [];
    for (const dir of ISSUE_TEMPLATE_DIRS) {
      const tree = await this.objects.entry(view.repoId, commit, dir);
      if (tree?.type !== 'tree') continue;
      for (const entry of (await this.objects.tree(view.repoId, tree.sha)) ?? []) {
        const fileName = `${dir}/${entry.name}`;
        if (!templateType(fileName)) continue;
        const content = entry.type === 'blob' ? await this.readSmall(view.repoId, entry.sha, MAX_DISPLAY_FILE_SIZE) : null;
        try {
          if (content === null) throw new TemplateError(`${fileName} cannot be read`);
          found.push(parseIssueTemplate(fileName, content));
        } catch (err) {
          if (!(err instanceof TemplateError)) throw err;
          result.invalid++;
        }
      }
    }
    result.templates = found;
    return result;
  }

  /** `GET …/issue_config`: the default branch's config, or the defaults when it is missing or invalid. */
  async issueConfig(actor: Actor | null, owner: string, repo: string): Promise<IssueConfig> {
    return (await this.readIssueConfig(actor, owner, repo)).config;
  }

  /** `GET …/issue_config/validate`: whether the config parses, and why not. */
  async validateIssueConfig(actor: Actor | null, owner: string, repo: string): Promise<IssueConfigValidation> {
    const { error } = await this.readIssueConfig(actor, owner, repo);
    return { valid: error === null, message: error ?? '' };
  }

  /**
   * `GET …/editorconfig/{filepath}`: the properties the root `.editorconfig` of `ref` (default
   * branch) gives that file; 404 when there is none.
   */
  async editorconfig(actor: Actor | null, owner: string, repo: string, rawPath: string, ref?: string): Promise<EditorConfigDefinition> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const path = requireTreePath(rawPath);
    if (path === '') throw notFound();
    const input = ref?.trim() || view.ctx.repo.defaultBranch;
    const resolved = view.ctx.repo.isEmpty ? null : await this.refs.resolve(view.repoId, input, view.objectFormat);
    if (!resolved) throw notFound(`object does not exist [id: ${input}, rel_path: ]`);
    const entry = await this.objects.entry(view.repoId, resolved.commit, '.editorconfig');
    const missing = () => notFound('object does not exist [id: , rel_path: .editorconfig]');
    if (entry?.type !== 'blob') throw missing();
    const key = `${view.repoId}:${entry.sha}`;
    let file = this.editorconfigs.get(key);
    if (!file) {
      const content = await this.readSmall(view.repoId, entry.sha, MAX_EDITORCONFIG_BYTES);
      if (content === null) throw missing();
      file = compileEditorConfig(Buffer.from(content));
      this.editorconfigs.set(key, file);
    }
    const props = editorconfigProps(path, file);
    const definition: EditorConfigDefinition = {};
    for (const field of EDITORCONFIG_FIELDS) {
      const value = props.get(field);
      if (value !== undefined && value !== '') definition[field] = value;
    }
    return definition;
  }

  private async readIssueConfig(actor: Actor | null, owner: string, repo: string): Promise<{ config: IssueConfig; error: string | null }> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const defaults = (): IssueConfig => ({ blank_issues_enabled: true, contact_links: [] });
    const commit = await this.defaultBranchCommit(view);
    if (!commit) return { config: defaults(), error: null };
    for (const path of ISSUE_CONFIG_PATHS) {
      const entry = await this.objects.entry(view.repoId, commit, path);
      if (!entry) continue;
      if (entry.type !== 'blob') return { config: defaults(), error: null };
      const data = await this.objects.blob(view.repoId, entry.sha);
      try {
        return { config: parseIssueConfig((data ?? Buffer.alloc(0)).subarray(0, MAX_ISSUE_CONFIG_BYTES).toString('utf8')), error: null };
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        return { config: defaults(), error: err.message };
      }
    }
    return { config: defaults(), error: null };
  }

  private async defaultBranchCommit(view: RepoView): Promise<GitCommit | null> {
    if (view.ctx.repo.isEmpty) return null;
    const sha = await this.refs.branchHead(view.repoId, view.ctx.repo.defaultBranch);
    return sha ? this.objects.commit(view.repoId, sha) : null;
  }

  /** A blob's text, or null when it is larger than `max` bytes. */
  private async readSmall(repoId: number, sha: string, max: number): Promise<string | null> {
    const info = await this.objects.info(repoId, sha);
    if (!info || info.size > max) return null;
    const data = await this.objects.blob(repoId, sha);
    return data ? data.toString('utf8') : null;
  }
}

/** A `.editorconfig`'s sections with their globs compiled; a null pattern matches nothing. */
export interface EditorConfigFile {
  sections: { pattern: Pattern | null; body: SectionBody }[];
  /** What the file weighs in the cache. */
  weight: number;
}

/**
 * A `.editorconfig`'s sections, their globs compiled on RE2 (compileEditorConfigGlobs): the file is
 * the repository's, so a glob the matcher cannot take, and any past the file's budget of regular
 * expression, is a section that matches nothing.
 */
export function compileEditorConfig(content: Buffer): EditorConfigFile {
  const named = parseBuffer(content).filter((entry): entry is [string, SectionBody] => entry[0] !== null);
  const globs = compileEditorConfigGlobs(named.map(([section]) => section));
  const sections = named.map(([, body], i) => ({ pattern: globs.patterns[i] ?? null, body }));
  const compiled = sections.filter((section) => section.pattern !== null).length;
  return { sections, weight: 1 + globs.regexLength + compiled * EDITORCONFIG_SECTION_WEIGHT };
}

/**
 * The properties the root `.editorconfig` gives `path` (relative to the repository root): the file's
 * sections in order, later ones overriding, `unset` removing, then the specification's defaults
 * between indent_style, indent_size and tab_width.
 */
export function editorconfigProps(path: string, file: EditorConfigFile): Map<string, string> {
  const props = new Map<string, string>();
  for (const { pattern, body } of file.sections) {
    if (!pattern?.test(path)) continue;
    for (const [rawKey, rawValue] of Object.entries(body)) {
      const key = rawKey.toLowerCase();
      const value = EDITORCONFIG_KNOWN.has(key) ? String(rawValue).toLowerCase() : String(rawValue);
      if (value === 'unset') props.delete(key);
      else props.set(key, value);
    }
  }
  if (props.get('indent_style') === 'tab' && !props.has('indent_size')) props.set('indent_size', 'tab');
  const indentSize = props.get('indent_size');
  if (indentSize !== undefined && indentSize !== 'tab' && !props.has('tab_width')) props.set('tab_width', indentSize);
  const tabWidth = props.get('tab_width');
  if (indentSize === 'tab' && tabWidth !== undefined) props.set('indent_size', tabWidth);
  return props;
}
