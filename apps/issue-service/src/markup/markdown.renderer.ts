import markdownIt, { type Env, type MarkdownIt, type StateCore, type Token } from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * Where a document's links lead, worked out from the request's Context (see MarkupService):
 * `null` parts leave the matching links as they are.
 */
export interface RenderLinks {
  /** `{root}{owner}/{repo}/`: issue references and wiki pages hang below it. */
  repo: string | null;
  /** Prefix of relative links (a file view, a wiki page, or the repository). */
  link: string;
  /** Prefix of relative images (raw media rather than the file view). */
  media: string;
  /** The instance's root URL, with its trailing slash: mentions point at `{root}{name}`. */
  root: string;
}

export interface RenderOptions {
  links: RenderLinks;
  /** `@name` of a user becomes a link (every mode but raw markdown). */
  mentions: boolean;
  /** `#123` becomes a link to the issue (comments and gfm). */
  issueRefs: boolean;
  /** `[[Page]]` and `[[Title|Page]]` become wiki links. */
  wikiLinks: boolean;
  /** A single newline is a `<br/>` (comments, as Gitea's EnableHardLineBreakInComments). */
  hardBreaks: boolean;
}

interface RenderEnv extends Env {
  options: RenderOptions;
  mentionable: ReadonlySet<string>;
  slugs: Map<string, number>;
  linkDepth: number;
}

/**
 * `@name` and `#123` where Gitea finds them: after the start, a space or an opening bracket, and
 * before the end, a space, a closing bracket or punctuation. Names cannot end in `.`, so a
 * sentence's full stop is left out.
 */
const REFERENCE = /(^|[\s([])(@[\w](?:[\w.-]*[\w])?|#\d+)(?=$|[\s)\]'",:;.?!])/g;
const WIKI_LINK = /\[\[([^\][|]+?)(?:\|([^\][|]+?))?\]\]/g;
const IMAGE_EXT = /\.(?:png|jpe?g|gif|webp|svg|avif|bmp|ico)$/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Most raw HTML tags a text keeps as HTML. The HTML parser under the sanitizer keeps open tags in
 * a list it shifts, quadratic in unclosed ones: 87,000 `<i>` held issue-service for 4 s. A text
 * with more (no real document has them) shows its tags as text, as with raw HTML turned off.
 */
const MAX_RAW_HTML_TAGS = 10_000;

/** How many `<` a text holds: every raw HTML tag starts with one. */
function rawTagsIn(text: string): number {
  let n = 0;
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) n++;
  return n;
}

/** Gitea's markdown (goldmark with GFM: tables, strikethrough, autolinks, task lists) as HTML, sanitised. */
export class MarkdownRenderer {
  private readonly md: MarkdownIt;
  private readonly mdBreaks: MarkdownIt;
  /** The same without raw HTML, for texts with more tags than {@link MAX_RAW_HTML_TAGS}. */
  private readonly mdText: MarkdownIt;
  private readonly mdTextBreaks: MarkdownIt;

  constructor() {
    this.md = this.build(false, true);
    this.mdBreaks = this.build(true, true);
    this.mdText = this.build(false, false);
    this.mdTextBreaks = this.build(true, false);
  }

  /** The `@names` of a text that could become mentions, lower-cased (looked up before rendering). */
  mentionCandidates(text: string, options: RenderOptions): string[] {
    if (!options.mentions) return [];
    const names = new Set<string>();
    const env = this.env(options, new Set());
    for (const token of this.parser(options, text).parse(text, env)) {
      if (token.type !== 'inline') continue;
      for (const child of token.children ?? []) {
        if (child.type !== 'text') continue;
        for (const m of child.content.matchAll(REFERENCE)) if (m[2]!.startsWith('@')) names.add(m[2]!.slice(1).toLowerCase());
      }
    }
    return [...names];
  }

  /** The HTML of `text`; `mentionable` holds the lower-cased names that are users to link to. */
  render(text: string, options: RenderOptions, mentionable: ReadonlySet<string>): string {
    if (text === '') return '';
    const md = this.parser(options, text);
    const env = this.env(options, mentionable);
    const html = md.renderer.render(md.parse(text, env), md.options, env);
    return sanitize(html);
  }

  private parser(options: RenderOptions, text = ''): MarkdownIt {
    if (rawTagsIn(text) > MAX_RAW_HTML_TAGS) return options.hardBreaks ? this.mdTextBreaks : this.mdText;
    return options.hardBreaks ? this.mdBreaks : this.md;
  }

  private env(options: RenderOptions, mentionable: ReadonlySet<string>): RenderEnv {
    return { options, mentionable, slugs: new Map(), linkDepth: 0 };
  }

  private build(breaks: boolean, html: boolean): MarkdownIt {
    const md = markdownIt({ html, linkify: true, typographer: false, breaks, xhtmlOut: true });
    md.core.ruler.push('gitforge_task_lists', taskLists);
    md.core.ruler.push('gitforge_references', references);
    const rules = md.renderer.rules;
    rules.heading_open = (tokens, idx, opts, rawEnv, self) => {
      const env = rawEnv as RenderEnv;
      const slug = uniqueSlug(env, slugOf(inlineText(tokens[idx + 1])));
      tokens[idx]!.attrSet('id', `user-content-${slug}`);
      return self.renderToken(tokens, idx, opts);
    };
    rules.link_open = (tokens, idx, opts, rawEnv, self) => {
      const env = rawEnv as RenderEnv;
      const token = tokens[idx]!;
      const href = token.attrGet('href');
      if (href !== null && !(token.meta as { resolved?: boolean } | null)?.resolved) token.attrSet('href', resolve(String(href), env.options.links.link));
      token.attrSet('rel', 'nofollow');
      env.linkDepth += 1;
      return self.renderToken(tokens, idx, opts);
    };
    rules.link_close = (tokens, idx, opts, rawEnv, self) => {
      const env = rawEnv as RenderEnv;
      env.linkDepth -= 1;
      return self.renderToken(tokens, idx, opts);
    };
    // Gitea shows an image as a link to itself, opened in a new tab.
    const image = rules.image!;
    rules.image = (tokens, idx, opts, rawEnv, self) => {
      const env = rawEnv as RenderEnv;
      const token = tokens[idx]!;
      const src = resolve(String(token.attrGet('src') ?? ''), env.options.links.media);
      token.attrSet('src', src);
      const img = image(tokens, idx, opts, rawEnv, self);
      if (env.linkDepth > 0) return img;
      return `<a href="${md.utils.escapeHtml(src)}" target="_blank" rel="nofollow noopener">${img}</a>`;
    };
    rules.fence = (tokens, idx) => {
      const token = tokens[idx]!;
      const lang = token.info.trim().split(/\s+/)[0] || 'text';
      return `<pre class="code-block"><code class="chroma language-${md.utils.escapeHtml(lang)} display">${md.utils.escapeHtml(token.content)}</code></pre>\n`;
    };
    rules.code_block = rules.fence;
    return md;
  }
}

/** GFM task lists: a list item starting `[ ]` or `[x]` gets a disabled checkbox, as Gitea renders it. */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const m = first?.type === 'text' ? /^\[([ xX])\][ \t]/.exec(first.content) : null;
    if (!first || !m) continue;
    first.content = first.content.slice(m[0].length);
    const box = new state.Token('html_inline', '', 0);
    box.content = m[1] === ' ' ? '<input type="checkbox" disabled=""/>' : '<input type="checkbox" disabled="" checked=""/>';
    inline.children!.unshift(box);
    tokens[i - 2]!.attrSet('class', 'task-list-item');
  }
}

/** `@user`, `#123` and, in wiki mode, `[[Page]]` inside plain text (never in code, and never inside another link). */
function references(state: StateCore): void {
  const env = state.env as RenderEnv;
  const { options } = env;
  if (!options.mentions && !options.issueRefs && !options.wikiLinks) return;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let depth = 0;
    for (const child of block.children) {
      if (child.type === 'link_open') depth += 1;
      if (child.type === 'link_close') depth -= 1;
      if (child.type !== 'text' || depth > 0) {
        out.push(child);
        continue;
      }
      // One by one: a text of a hundred thousand references would overflow a spread's arguments.
      for (const piece of splitText(state, child.content, env)) out.push(piece);
    }
    block.children = out;
  }
}

function splitText(state: StateCore, text: string, env: RenderEnv): Token[] {
  const { options } = env;
  const pieces: Token[] = [];
  const textToken = (content: string) => {
    if (!content) return;
    const t = new state.Token('text', '', 0);
    t.content = content;
    pieces.push(t);
  };
  const link = (href: string, label: string, cls?: string) => {
    const open = new state.Token('link_open', 'a', 1);
    open.attrSet('href', href);
    if (cls) open.attrSet('class', cls);
    open.meta = { resolved: true };
    pieces.push(open);
    textToken(label);
    pieces.push(new state.Token('link_close', 'a', -1));
  };

  const matches: Array<{ start: number; end: number; emit: () => void }> = [];
  if (options.wikiLinks && options.links.repo) {
    const wiki = options.links.repo;
    for (const m of text.matchAll(WIKI_LINK)) {
      const title = m[1]!.trim();
      const page = (m[2] ?? m[1]!).trim();
      const label = m[2] ? title : page;
      matches.push({
        start: m.index,
        end: m.index + m[0].length,
        emit: () => link(`${wiki}wiki/${IMAGE_EXT.test(page) ? 'raw/' : ''}${encodeURI(page.replace(/ /g, '-'))}`, label),
      });
    }
  }
  if (options.mentions || options.issueRefs) {
    // The wiki links come in text order and do not overlap: one pass over them finds any that a
    // reference falls into (checking every match again for each reference took seconds for a
    // text of a hundred thousand mentions).
    const wikis = matches.slice();
    let w = 0;
    for (const m of text.matchAll(REFERENCE)) {
      const start = m.index + m[1]!.length;
      const ref = m[2]!;
      while (w < wikis.length && wikis[w]!.end <= start) w++;
      if (w < wikis.length && wikis[w]!.start < start + ref.length) continue;
      if (ref.startsWith('#')) {
        const repo = options.links.repo;
        if (!repo || !options.issueRefs) continue;
        matches.push({ start, end: start + ref.length, emit: () => link(`${repo}issues/${ref.slice(1)}`, ref, 'ref-issue') });
      } else {
        const name = ref.slice(1);
        if (!options.mentions || !env.mentionable.has(name.toLowerCase())) continue;
        matches.push({ start, end: start + ref.length, emit: () => link(`${options.links.root}${encodeURIComponent(name)}`, ref, 'mention') });
      }
    }
  }
  if (matches.length === 0) {
    textToken(text);
    return pieces;
  }
  matches.sort((a, b) => a.start - b.start);
  let at = 0;
  for (const m of matches) {
    textToken(text.slice(at, m.start));
    m.emit();
    at = m.end;
  }
  textToken(text.slice(at));
  return pieces;
}

/** A relative link against `base`; absolute URLs, anchors and `/`-rooted paths of this instance stay as they are. */
function resolve(href: string, base: string): string {
  if (href === '' || href.startsWith('#') || SCHEME.test(href) || href.startsWith('//')) return href;
  if (href.startsWith('/')) return new URL(href, base).toString();
  return base + href.replace(/^\.\//, '');
}

function inlineText(token: Token | undefined): string {
  return (token?.children ?? []).map((c: Token) => (c.type === 'text' || c.type === 'code_inline' ? c.content : '')).join('');
}

/** Gitea's heading ids: lower case, spaces to dashes, punctuation dropped. */
function slugOf(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function uniqueSlug(env: RenderEnv, slug: string): string {
  const seen = env.slugs.get(slug) ?? 0;
  env.slugs.set(slug, seen + 1);
  return seen === 0 ? slug : `${slug}-${seen}`;
}

/** What Gitea's sanitizer (bluemonday's UGC policy and its additions) lets through. */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img', 'input', 'del', 's', 'ins', 'details', 'summary', 'kbd', 'sup', 'sub', 'span', 'picture', 'source', 'video', 'audio',
  ],
  allowedAttributes: {
    '*': ['id', 'title', 'align', 'dir', 'lang'],
    a: ['href', 'name', 'target', 'rel', 'class'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    input: ['type', 'disabled', 'checked'],
    code: ['class'],
    pre: ['class'],
    li: ['class'],
    th: ['style', 'colspan', 'rowspan'],
    td: ['style', 'colspan', 'rowspan'],
    ol: ['start', 'type'],
    details: ['open'],
    source: ['src', 'srcset', 'media', 'type'],
    video: ['src', 'controls', 'width', 'height', 'poster'],
    audio: ['src', 'controls'],
  },
  allowedClasses: {
    a: ['mention', 'ref-issue'],
    code: ['chroma', 'display', 'language-*'],
    pre: ['code-block'],
    li: ['task-list-item'],
  },
  allowedStyles: { th: { 'text-align': [/^(?:left|right|center)$/] }, td: { 'text-align': [/^(?:left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto', 'ftp', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  // Gitea prefixes every id (and here an anchor's name) with `user-content-`, so that a document
  // cannot clobber the page's own elements or globals (`<a id="config">` as window.config).
  // Links of raw HTML also get rel=nofollow, as bluemonday's RequireNoFollowOnLinks gives every
  // link with an href in Gitea (the renderer's own links have it already).
  transformTags: { '*': (tagName, attribs) => ({ tagName, attribs: noFollow(tagName, userContentNames(attribs)) }) },
  selfClosing: ['img', 'br', 'hr', 'input', 'source'],
};

function noFollow(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  if (tagName !== 'a' || attribs.href === undefined) return attribs;
  const rel = (attribs.rel ?? '').split(/\s+/).filter(Boolean);
  return rel.includes('nofollow') ? attribs : { ...attribs, rel: [...rel, 'nofollow'].join(' ') };
}

function userContentNames(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const out = { ...attribs };
  for (const key of ['id', 'name']) {
    const value = out[key];
    if (value !== undefined && !value.startsWith('user-content-')) out[key] = `user-content-${value}`;
  }
  return out;
}

/**
 * Gitea writes void elements as `<br/>` and a checkbox's flags as `disabled=""`; sanitize-html
 * writes `<br />` and bare `disabled`. Text cannot hold either form: its `<` and `>` are escaped.
 */
function sanitize(html: string): string {
  return sanitizeHtml(html, SANITIZE)
    .replace(/<input [^>]*>/g, (tag) => tag.replace(/ (disabled|checked)(?=[ /])/g, ' $1=""'))
    .replace(/ \/>/g, '/>');
}
