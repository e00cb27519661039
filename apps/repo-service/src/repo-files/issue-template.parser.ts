import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { parseYamlDocument, type IssueConfig, type IssueFormField, type IssueTemplate } from '@gitforge/contracts';

/** Gitea's issue template directories, all of them read, in its order. */
export const ISSUE_TEMPLATE_DIRS = [
  'ISSUE_TEMPLATE',
  'issue_template',
  '.gitea/ISSUE_TEMPLATE',
  '.gitea/issue_template',
  '.github/ISSUE_TEMPLATE',
  '.github/issue_template',
  '.gitlab/ISSUE_TEMPLATE',
  '.gitlab/issue_template',
];

/** Where the issue config may be (`.yaml` before `.yml`); the first that exists is the config. */
export const ISSUE_CONFIG_PATHS = [
  '.gitea/ISSUE_TEMPLATE/config',
  '.gitea/issue_template/config',
  '.github/ISSUE_TEMPLATE/config',
  '.github/issue_template/config',
].flatMap((base) => [`${base}.yaml`, `${base}.yml`]);

/** A file that cannot be a usable template or config; the message says why (issue_config/validate shows it). */
export class TemplateError extends Error {}

/** Gitea's IssueTemplate.Type: `md`, `yaml`, or null for any other file and for the config files. */
export function templateType(fileName: string): 'md' | 'yaml' | null {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  if (base === 'config.yaml' || base === 'config.yml') return null;
  if (base.endsWith('.md')) return 'md';
  if (base.endsWith('.yaml') || base.endsWith('.yml')) return 'yaml';
  return null;
}

/**
 * One template file, parsed and validated as Gitea's template.Unmarshal does: a Markdown file's
 * front matter or a YAML issue form. Throws a {@link TemplateError} for a file Gitea skips.
 */
export function parseIssueTemplate(fileName: string, content: string): IssueTemplate {
  const type = templateType(fileName);
  if (!type) throw new TemplateError(`${fileName} is not an issue template`);
  const template: IssueTemplate = {
    name: '',
    title: '',
    about: '',
    labels: null,
    assignees: null,
    ref: '',
    content: '',
    body: null,
    file_name: fileName,
  };
  if (type === 'md') {
    const front = frontMatter(content);
    if (!front || !readFrontMatter(template, front.meta)) {
      // Gitea cannot tell a broken front matter from none: the whole file is the template.
      template.content = content;
      template.name = fileName.slice(fileName.lastIndexOf('/') + 1);
      template.about = ellipsis(content, 80);
    } else {
      template.content = front.body;
    }
  } else {
    readMetadata(template, parseMapping(content));
    template.body?.forEach((field, i) => {
      if (field.id === '') field.id = String(i);
      field.visible ??= field.type === 'markdown' ? ['form'] : ['form', 'content'];
    });
  }
  validateTemplate(template, type);
  if (!template.ref.startsWith('refs/')) template.ref = `refs/heads/${template.ref}`;
  return template;
}

/** The issue config file as Gitea's GetTemplateConfig reads it; a {@link TemplateError} when it is unusable. */
export function parseIssueConfig(content: string): IssueConfig {
  const config: IssueConfig = { blank_issues_enabled: true, contact_links: [] };
  const doc = parseMapping(content);
  const blank = doc.get('blank_issues_enabled');
  if (blank !== undefined && blank !== null) {
    if (typeof blank !== 'boolean') throw new TemplateError('blank_issues_enabled should be a bool');
    config.blank_issues_enabled = blank;
  }
  const links = doc.get('contact_links');
  if (links !== undefined && links !== null) {
    if (!Array.isArray(links)) throw new TemplateError('contact_links should be a list');
    links.forEach((link, i) => {
      if (!isPlainObject(link)) throw new TemplateError(`contact_link at position ${i + 1} should be a mapping`);
      const entry = { name: stringOf(link.name, 'name'), url: stringOf(link.url, 'url'), about: stringOf(link.about, 'about') };
      for (const key of ['name', 'url', 'about'] as const) {
        if (entry[key] === '') throw new TemplateError(`contact_link at position ${i + 1} is missing ${key} key`);
      }
      if (!isRequestUri(entry.url)) throw new TemplateError(`${entry.url} is not a valid URL`);
      config.contact_links.push(entry);
    });
  }
  return config;
}

/** The YAML front matter between two `---` lines at the top of a Markdown file, and what follows. */
function frontMatter(content: string): { meta: string; body: string } | null {
  const lines = content.split('\n');
  const separator = (line: string) => /^ *-{3,} *\r?$/.test(line);
  if (!separator(lines[0] ?? '')) return null;
  const end = lines.findIndex((line, i) => i > 0 && separator(line));
  if (end < 0) return null;
  const meta = lines.slice(1, end).join('\n');
  if (meta === '') return null;
  return { meta: `${meta}\n`, body: lines.slice(end + 1).join('\n') };
}

type Mapping = Map<string, unknown>;

/** Reads Markdown front matter into `template`; false (and `template` untouched) when it is no valid metadata. */
function readFrontMatter(template: IssueTemplate, meta: string): boolean {
  const read: IssueTemplate = { ...template };
  try {
    readMetadata(read, parseMapping(meta));
  } catch (err) {
    if (err instanceof TemplateError) return false;
    throw err;
  }
  Object.assign(template, read);
  return true;
}

/** A YAML document's top-level mapping, its values as plain JS; an empty document is an empty mapping. */
function parseMapping(text: string): Mapping {
  const doc = parseYamlDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) throw new TemplateError(`yaml: ${doc.errors[0]!.message}`);
  const root = doc.contents as Node | null;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return new Map();
  if (!isMap(root)) throw new TemplateError('yaml: the document is not a mapping');
  const out: Mapping = new Map();
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : null;
    if (key === null) continue;
    out.set(key, isScalar(pair.value) || isMap(pair.value) || isSeq(pair.value) ? valueOf(pair.value, doc) : null);
  }
  return out;
}

/**
 * A node as plain JS. The yaml library refuses documents whose aliases would expand past its
 * limit (a "billion laughs" file) with a ReferenceError: that is a broken template, not a fault.
 */
function valueOf(node: Node, doc: Parameters<Node['toJS']>[0]): unknown {
  try {
    return node.toJS(doc);
  } catch (err) {
    throw new TemplateError(`yaml: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function readMetadata(template: IssueTemplate, meta: Mapping): void {
  template.name = stringOf(meta.get('name'), 'name');
  template.title = stringOf(meta.get('title'), 'title');
  template.about = stringOf(meta.get('about'), 'about') || stringOrEmpty(meta.get('description'));
  template.ref = stringOf(meta.get('ref'), 'ref');
  template.labels = stringList(meta.get('labels'), 'labels');
  template.assignees = stringList(meta.get('assignees'), 'assignees');
  const body = meta.get('body');
  if (body !== undefined && body !== null) {
    if (!Array.isArray(body)) throw new TemplateError("yaml: 'body' should be a list");
    template.body = body.map((field, i) => formField(field, i));
  }
}

function formField(raw: unknown, index: number): IssueFormField {
  if (!isPlainObject(raw)) throw new TemplateError(`yaml: body[${index}] should be a mapping`);
  const visible = raw.visible;
  if (visible !== undefined && visible !== null && (!Array.isArray(visible) || visible.some((v) => typeof v !== 'string'))) {
    throw new TemplateError(`yaml: body[${index}].visible should be a list of strings`);
  }
  const field: IssueFormField = {
    type: stringOf(raw.type, `body[${index}].type`) as IssueFormField['type'],
    id: stringOf(raw.id, `body[${index}].id`),
    attributes: mapOf(raw.attributes, `body[${index}].attributes`),
    validations: mapOf(raw.validations, `body[${index}].validations`),
  };
  if (Array.isArray(visible)) field.visible = visible as IssueFormField['visible'];
  return field;
}

/** Gitea's template.Validate, its messages included. */
function validateTemplate(template: IssueTemplate, type: 'md' | 'yaml'): void {
  if (template.name.trim() === '') throw new TemplateError("'name' is required");
  if (template.about.trim() === '') throw new TemplateError("'about' is required");
  if (type !== 'yaml') return;
  if (!template.body || template.body.length === 0) throw new TemplateError("'body' is required");
  const ids = new Set<string>();
  template.body.forEach((field, idx) => {
    const at = `body[${idx}](${field.type})`;
    const fail = (message: string): never => {
      throw new TemplateError(`${at}: ${message}`);
    };
    const attributes = field.attributes ?? {};
    const validations = field.validations ?? {};
    if (field.type !== 'markdown') {
      if (field.id === '') fail("'id' is required");
      if (!/^[A-Za-z0-9_-]*$/.test(field.id)) fail("'id' should contain only alphanumeric, '-' and '_'");
      if (ids.has(field.id)) fail("'id' should be unique");
      ids.add(field.id);
      stringItems(attributes, true, ['label'], fail);
    }
    switch (field.type) {
      case 'markdown':
        stringItems(attributes, true, ['value'], fail);
        break;
      case 'textarea':
        stringItems(attributes, false, ['description', 'placeholder', 'value', 'render'], fail);
        break;
      case 'input':
        stringItems(attributes, false, ['description', 'placeholder', 'value'], fail);
        boolItem(validations, 'is_number', fail);
        stringItems(validations, false, ['regex'], fail);
        break;
      case 'dropdown':
        stringItems(attributes, false, ['description'], fail);
        boolItem(attributes, 'multiple', fail);
        options(field, attributes, at, fail);
        break;
      case 'checkboxes':
        stringItems(attributes, false, ['description'], fail);
        options(field, attributes, at, fail);
        break;
      default:
        fail('unknown type');
    }
    if (field.type !== 'markdown' && field.type !== 'checkboxes') boolItem(validations, 'required', fail);
  });
}

type Fail = (message: string) => never;

/** Gitea's validateStringItem, including its stop at the first absent optional name. */
function stringItems(m: Record<string, unknown>, required: boolean, names: string[], fail: Fail): void {
  for (const name of names) {
    if (!(name in m)) {
      if (required) fail(`'${name}' is required`);
      return;
    }
    const v = m[name];
    if (typeof v !== 'string') fail(`'${name}' should be a string`);
    if (required && (v as string).trim() === '') fail(`'${name}' is required`);
  }
}

function boolItem(m: Record<string, unknown>, name: string, fail: Fail): void {
  if (name in m && typeof m[name] !== 'boolean') fail(`'${name}' should be a bool`);
}

function options(field: IssueFormField, attributes: Record<string, unknown>, at: string, fail: Fail): void {
  const list = attributes.options;
  if (!Array.isArray(list) || list.length === 0) fail("'options' is required and should be a array");
  (list as unknown[]).forEach((option, i) => {
    const failOption = (message: string): never => {
      throw new TemplateError(`${at}, option[${i}]: ${message}`);
    };
    if (field.type === 'dropdown') {
      if (typeof option !== 'string') failOption('should be a string');
      return;
    }
    if (!isPlainObject(option)) return failOption('should be a dictionary');
    if (typeof option.label !== 'string' || option.label === '') failOption("'label' is required and should be a string");
    if ('required' in option && typeof option.required !== 'boolean') failOption("'required' should be a bool");
  });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** A scalar as a Go YAML decoder puts it into a string field; absent or null is ''. */
function stringOf(v: unknown, what: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  throw new TemplateError(`yaml: '${what}' should be a string`);
}

function stringOrEmpty(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Gitea's IssueTemplateStringSlice: a list, or one comma-separated string. */
function stringList(v: unknown, what: string): string[] | null {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map((item) => stringOf(item, what));
  if (typeof v === 'string') {
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }
  throw new TemplateError(`yaml: '${what}' should be a list or a string`);
}

function mapOf(v: unknown, what: string): Record<string, unknown> | null {
  if (v === undefined || v === null) return null;
  if (!isPlainObject(v)) throw new TemplateError(`yaml: '${what}' should be a mapping`);
  return v;
}

/** Go's url.ParseRequestURI: an absolute URL, or an absolute path. */
function isRequestUri(url: string): boolean {
  if (url.startsWith('/')) return !/\s/.test(url);
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) return false;
  return URL.canParse(url);
}

/** Gitea's EllipsisDisplayString: at most `limit` characters, the last being `…` when cut. */
function ellipsis(text: string, limit: number): string {
  const chars = [...text];
  return chars.length <= limit ? text : `${chars.slice(0, limit - 1).join('')}…`;
}
