import { posix } from 'node:path';
import { Injectable } from '@nestjs/common';
import { MAX_MARKUP_TEXT_LENGTH, unprocessable, type Actor, type MarkupOption } from '@gitforge/contracts';
import { DirectoryClient, PlatformConfig } from '@gitforge/platform';
import { MarkdownRenderer, type RenderLinks, type RenderOptions } from './markdown.renderer.js';

/** The extensions Gitea's markdown renderer claims (`[markup.markdown] FILE_EXTENSIONS`). */
const MARKDOWN_FILE = /\.(?:md|markdown|mdown|mkd|livemd)$/i;

/**
 * `POST /markdown`, `/markdown/raw` and `/markup` (Gitea's routers/common/markup.go). Nothing is
 * read from the repository the Context names: as in Gitea, the route has no repository and no
 * permission check, so only the path decides where links point.
 */
@Injectable()
export class MarkupService {
  private readonly renderer = new MarkdownRenderer();

  constructor(
    private readonly config: PlatformConfig,
    private readonly directory: DirectoryClient,
  ) {}

  async render(actor: Actor | null, body: MarkupOption): Promise<string> {
    const mode = body.Wiki ? 'wiki' : (body.Mode ?? '');
    const options = this.options(mode, body.Context ?? '', body.FilePath ?? '');
    const text = body.Text ?? '';
    // The gateway refuses longer texts; a caller that skipped it must not stall the service either.
    if (text.length > MAX_MARKUP_TEXT_LENGTH) throw unprocessable(`the text to render is longer than ${MAX_MARKUP_TEXT_LENGTH} characters`);
    const names = this.renderer.mentionCandidates(text, options);
    const accounts = names.length > 0 ? await this.directory.accountsByNames(actor, names) : [];
    return this.renderer.render(text, options, new Set(accounts.map((a) => a.login.toLowerCase())));
  }

  private options(mode: string, context: string, filePath: string): RenderOptions {
    const root = this.config.rootUrl;
    const path = stripRoot(context, root);
    if (mode === '' || mode === 'markdown') {
      const base = path ? `${root}${path.replace(/\/?$/, '/')}` : root;
      return { links: { repo: null, link: base, media: base, root }, mentions: false, issueRefs: false, wikiLinks: false, hardBreaks: false };
    }
    if (!['gfm', 'comment', 'wiki', 'file'].includes(mode)) throw unprocessable(`Unknown mode: ${mode}`);
    if (mode === 'file' && !MARKDOWN_FILE.test(filePath)) throw unprocessable(`unsupported file to render: "${filePath}"`);
    const links = linksOf(root, path, mode, filePath);
    return { links, mentions: true, issueRefs: mode === 'gfm' || mode === 'comment', wikiLinks: mode === 'wiki', hardBreaks: mode === 'comment' };
  }
}

/** The Context as a path below the root URL, without slashes at either end (a full URL of this instance is accepted too). */
function stripRoot(context: string, root: string): string {
  const rootPath = new URL(root).pathname;
  let path = context.startsWith(root) ? context.slice(root.length) : context;
  if (path.startsWith(rootPath)) path = path.slice(rootPath.length);
  return path.replace(/^\/+|\/+$/g, '');
}

/**
 * Where links point for a Context of `{owner}/{repo}` or `{owner}/{repo}/src/{branch|commit|tag}/{ref}[/{dir}]`:
 * in a file view, relative links open files of the same ref and directory and images their raw
 * media; in a wiki, pages; elsewhere, paths of the repository.
 */
function linksOf(root: string, path: string, mode: string, filePath: string): RenderLinks {
  const fields = path.split('/');
  if (fields.length < 2 || !fields[0] || !fields[1]) return { repo: null, link: root, media: root, root };
  const repo = `${root}${fields[0]}/${fields[1]}/`;
  if (mode === 'wiki') return { repo, link: `${repo}wiki/`, media: `${repo}wiki/raw/`, root };
  if (fields.length >= 5 && fields[2] === 'src' && ['branch', 'commit', 'tag'].includes(fields[3]!)) {
    const treePath = filePath ? posix.dirname(filePath) : '.';
    let refPath = fields.slice(3).join('/');
    if (treePath !== '.' && refPath.endsWith(`/${treePath}`)) refPath = refPath.slice(0, -treePath.length - 1);
    const dir = treePath === '.' ? '' : `${treePath}/`;
    return { repo, link: `${repo}src/${refPath}/${dir}`, media: `${repo}media/${refPath}/${dir}`, root };
  }
  return { repo, link: repo, media: repo, root };
}
