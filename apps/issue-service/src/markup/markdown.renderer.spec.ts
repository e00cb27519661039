import { MarkdownRenderer, type RenderOptions } from './markdown.renderer.js';

const ROOT = 'http://localhost:3000/';
const REPO = `${ROOT}user2/repo1/`;

const document = (over: Partial<RenderOptions> = {}): RenderOptions => ({
  links: { repo: REPO, link: `${REPO}src/branch/main/`, media: `${REPO}media/branch/main/`, root: ROOT },
  mentions: true,
  issueRefs: true,
  wikiLinks: false,
  hardBreaks: false,
  ...over,
});

describe(MarkdownRenderer.name, () => {
  const sut = new MarkdownRenderer();

  it('should render relative links and images against the file view, as Gitea', () => {
    expect(sut.render('[Link](test.md)\n![Image](image.png)', document(), new Set())).toBe(
      `<p><a href="${REPO}src/branch/main/test.md" rel="nofollow">Link</a>\n` +
        `<a href="${REPO}media/branch/main/image.png" target="_blank" rel="nofollow noopener"><img src="${REPO}media/branch/main/image.png" alt="Image"/></a></p>\n`,
    );
  });

  it('should give headings ids and links rel=nofollow', () => {
    expect(sut.render('## What is Wine Staging?\n**Wine Staging** on website [wine-staging.com](http://wine-staging.com).', document(), new Set())).toBe(
      '<h2 id="user-content-what-is-wine-staging">What is Wine Staging?</h2>\n' +
        '<p><strong>Wine Staging</strong> on website <a href="http://wine-staging.com" rel="nofollow">wine-staging.com</a>.</p>\n',
    );
  });

  it('should link mentions of known users and issue references, never inside code', () => {
    const html = sut.render('Thanks @r-lyeh and @nobody, see #12.\n\n`#13 @r-lyeh`', document(), new Set(['r-lyeh']));
    expect(html).toBe(
      `<p>Thanks <a href="${ROOT}r-lyeh" class="mention" rel="nofollow">@r-lyeh</a> and @nobody, see <a href="${REPO}issues/12" class="ref-issue" rel="nofollow">#12</a>.</p>\n` +
        '<p><code>#13 @r-lyeh</code></p>\n',
    );
    expect(sut.mentionCandidates('Hi @Alice, @bob. `@carol`', document())).toEqual(['alice', 'bob']);
  });

  it('should leave references alone in raw markdown', () => {
    expect(sut.render('see #12 @r-lyeh', document({ mentions: false, issueRefs: false }), new Set(['r-lyeh']))).toBe('<p>see #12 @r-lyeh</p>\n');
  });

  it('should render wiki links in wiki mode only', () => {
    const wiki = document({ wikiLinks: true, links: { repo: REPO, link: `${REPO}wiki/`, media: `${REPO}wiki/raw/`, root: ROOT } });
    expect(sut.render('[[Name|Link]]', wiki, new Set())).toBe(`<p><a href="${REPO}wiki/Link" rel="nofollow">Name</a></p>\n`);
    expect(sut.render('[[Name|Link]]', document(), new Set())).toBe('<p>[[Name|Link]]</p>\n');
    // A reference inside a wiki link is the link's text; the ones around it are references.
    expect(sut.render('#1 [[#2|Page]] #3 [[Other]] #4', wiki, new Set())).toBe(
      `<p><a href="${REPO}issues/1" class="ref-issue" rel="nofollow">#1</a> <a href="${REPO}wiki/Page" rel="nofollow">#2</a> ` +
        `<a href="${REPO}issues/3" class="ref-issue" rel="nofollow">#3</a> <a href="${REPO}wiki/Other" rel="nofollow">Other</a> ` +
        `<a href="${REPO}issues/4" class="ref-issue" rel="nofollow">#4</a></p>\n`,
    );
  });

  it('should render a text of a hundred thousand references (no call holds them all as arguments)', () => {
    const html = sut.render('#1 @a '.repeat(50_000), document(), new Set(['a']));
    expect(html.match(/class="ref-issue"/g)).toHaveLength(50_000);
    expect(html.match(/class="mention"/g)).toHaveLength(50_000);
  });

  it('should render task lists, tables and fenced code', () => {
    expect(sut.render('- [ ] todo\n- [x] done', document(), new Set())).toBe(
      '<ul>\n<li class="task-list-item"><input type="checkbox" disabled=""/>todo</li>\n<li class="task-list-item"><input type="checkbox" disabled="" checked=""/>done</li>\n</ul>\n',
    );
    expect(sut.render('| a | b |\n|:--|--:|\n| 1 | 2 |', document(), new Set())).toBe(
      '<table>\n<thead>\n<tr>\n<th style="text-align:left">a</th>\n<th style="text-align:right">b</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td style="text-align:left">1</td>\n<td style="text-align:right">2</td>\n</tr>\n</tbody>\n</table>\n',
    );
    expect(sut.render('```go\nfmt.Println("<hi>")\n```', document(), new Set())).toBe(
      '<pre class="code-block"><code class="chroma language-go display">fmt.Println("&lt;hi&gt;")\n</code></pre>\n',
    );
  });

  it('should turn single newlines into breaks in comments only', () => {
    expect(sut.render('a\nb', document({ hardBreaks: true }), new Set())).toBe('<p>a<br/>\nb</p>\n');
    expect(sut.render('a\nb', document(), new Set())).toBe('<p>a\nb</p>\n');
  });

  it('should strip scripts, event handlers and javascript: links from raw HTML', () => {
    const html = sut.render('<script>alert(1)</script><img src="x.png" onerror="alert(1)">\n\n[x](javascript:alert(1)) <a href="javascript:alert(1)">y</a>', document(), new Set());
    expect(html).not.toMatch(/<script|onerror|href="javascript/i);
    expect(html).toContain('<img src="x.png"/>');
  });

  it('should keep styles, frames, forms and dangerous URLs of raw HTML out', () => {
    const html = sut.render(
      '<div style="position:fixed">a</div><iframe src="https://x"></iframe><form action="/x"><input type="text"></form>' +
        '<a href="data:text/html,x">d</a><video src="v.mp4" poster="javascript:alert(1)"></video><details open ontoggle="alert(1)">s</details>',
      document(),
      new Set(),
    );
    expect(html).not.toMatch(/style=|<iframe|<form|type="text"|data:text|javascript:|ontoggle/i);
  });

  it('should prefix the ids and anchor names of raw HTML, as Gitea, so that they cannot clobber the page', () => {
    expect(sut.render('<a id="config" name="x" href="#a">a</a> <span id="user-content-b">b</span>', document(), new Set())).toBe(
      '<p><a id="user-content-config" name="user-content-x" href="#a" rel="nofollow">a</a> <span id="user-content-b">b</span></p>\n',
    );
  });

  it('should give the links of raw HTML rel=nofollow, as the sanitizer of Gitea does, keeping a rel they have', () => {
    expect(sut.render('<a onblur="alert(1)" href="http://www.google.com">Google</a> <a href="/x" rel="noopener">x</a> <a name="n">n</a>', document(), new Set())).toBe(
      '<p><a href="http://www.google.com" rel="nofollow">Google</a> <a href="/x" rel="noopener nofollow">x</a> <a name="user-content-n">n</a></p>\n',
    );
  });

  it('should show the tags of a text with more than ten thousand as text, and keep them as HTML below that', () => {
    const many = sut.render(`${'<i>'.repeat(10_001)}x`, document(), new Set());
    expect(many).toContain('&lt;i&gt;');
    expect(many).not.toContain('<i>');
    expect(sut.render(`${'<i>'.repeat(3)}x`, document(), new Set())).toBe('<p><i><i><i>x</i></i></i></p>\n');
  });

  it('should answer nothing for an empty text', () => {
    expect(sut.render('', document(), new Set())).toBe('');
  });
});
