import type { Commit } from './commit.js';

/** One field of an issue form (a YAML template's `body`), as the template file states it. */
export interface IssueFormField {
  type: 'markdown' | 'textarea' | 'input' | 'dropdown' | 'checkboxes';
  id: string;
  attributes: Record<string, unknown> | null;
  validations: Record<string, unknown> | null;
  /** Where the field shows: on the form, in the issue's content (Gitea fills it in when the file does not). */
  visible?: Array<'form' | 'content'>;
}

/** An issue template of the default branch: a Markdown file with front matter, or a YAML issue form. */
export interface IssueTemplate {
  name: string;
  title: string;
  about: string;
  labels: string[] | null;
  assignees: string[] | null;
  /** Always a full ref name: a bare name from the file is taken as a branch (`refs/heads/…`). */
  ref: string;
  /** A Markdown template's text after its front matter; empty for an issue form. */
  content: string;
  body: IssueFormField[] | null;
  file_name: string;
}

/** The valid templates, and how many template files could not be used (Gitea's X-Gitea-Warning count). */
export interface IssueTemplates {
  templates: IssueTemplate[];
  invalid: number;
}

export interface IssueConfigContactLink {
  name: string;
  url: string;
  about: string;
}

/** The default branch's issue config (`…/ISSUE_TEMPLATE/config.yml`), or the defaults. */
export interface IssueConfig {
  blank_issues_enabled: boolean;
  contact_links: IssueConfigContactLink[];
}

export interface IssueConfigValidation {
  valid: boolean;
  message: string;
}

/** The `.editorconfig` properties that apply to one file, by name (`indent_style`, `tab_width`, …). */
export type EditorConfigDefinition = Record<string, string>;

/** A commit's git note (refs/notes/commits). */
export interface Note {
  message: string;
  commit: Commit;
}
