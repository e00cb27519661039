import { commit, repo, ROOT, user } from '../../../test/fixtures.js';
import { queryEscape } from '@gitforge/contracts';
import { chatPayload } from './hook-types.js';

const ann = user(1, 'ann');
const proj = repo(5, user(9, 'acme'), 'proj');
const c1 = commit('1234567890abcdef1234567890abcdef12345678', 'Fix the build\n\nLonger text');
const c2 = commit('abcdef1234567890abcdef1234567890abcdef12', 'A very long commit subject line that goes on and on beyond fifty chars');
const push = {
  ref: 'refs/heads/main',
  before: '0'.repeat(40),
  after: c1.id,
  compare_url: `${proj.html_url}/compare/000...123`,
  commits: [c1, c2],
  total_commits: 2,
  head_commit: c1,
  repository: proj,
  pusher: ann,
  sender: ann,
};

describe('chat hook formats', () => {
  it("should render a push for slack with Slack's link syntax and a commit list", () => {
    const p = chatPayload('slack', 'push', push, ROOT, { channel: '#dev', username: 'bot', color: 'good' });
    expect(p).toEqual({
      channel: '#dev',
      text: `[<${proj.html_url}|acme/proj>:<${proj.html_url}/src/branch/main|main>] <${push.compare_url}|2 new commits> pushed by ann`,
      username: 'bot',
      icon_url: '',
      unfurl_links: 0,
      link_names: 0,
      attachments: [
        {
          fallback: '',
          color: 'good',
          title: proj.html_url,
          title_link: proj.html_url,
          text: `<${c1.url}|1234567>: Fix the build - Ann\n<${c2.url}|abcdef1>: A very long commit subject line that goes on and on beyond fifty chars - Ann`,
        },
      ],
    });
  });

  it('should render a push for discord as an embed, shortening long subjects', () => {
    const p = chatPayload('discord', 'push', push, ROOT, {}) as { embeds: Array<Record<string, unknown>>; avatar_url?: string };
    expect(p.avatar_url).toBeUndefined();
    expect(p.embeds[0]).toEqual({
      title: '[acme/proj:main] 2 new commits',
      description: `[1234567](${c1.url}) Fix the build - Ann\n[abcdef1](${c2.url}) A very long commit subject line that goes on an... - Ann`,
      url: push.compare_url,
      color: 0x1ac600,
      footer: { text: '' },
      author: { name: 'ann', url: `${ROOT}ann`, icon_url: ann.avatar_url },
      fields: null,
    });
  });

  it('should render a push for Microsoft Teams as a MessageCard', () => {
    const p = chatPayload('msteams', 'push', push, ROOT, {});
    expect(p).toMatchObject({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      themeColor: '1ac600',
      title: '[acme/proj:main] 2 new commits',
      summary: '[acme/proj:main] 2 new commits',
      sections: [
        {
          activityTitle: 'ann Full',
          activitySubtitle: 'ann',
          facts: [
            { name: 'Repository:', value: 'acme/proj' },
            { name: 'Commit count:', value: '2' },
          ],
        },
      ],
      potentialAction: [{ '@type': 'OpenUri', name: 'View in Gitea', targets: [{ os: 'default', uri: push.compare_url }] }],
    });
  });

  it('should render branch creation and deletion', () => {
    const created = { sha: c1.id, ref: 'feature/x', ref_type: 'branch', repository: proj, sender: ann };
    expect(chatPayload('slack', 'create', created, ROOT, {})).toMatchObject({
      text: `[<${proj.html_url}|acme/proj>:<${proj.html_url}/src/branch/feature/x|feature/x>] branch created by ann`,
    });
    expect(chatPayload('discord', 'create', created, ROOT, {})).toMatchObject({
      embeds: [{ title: '[acme/proj] branch feature/x created', url: `${proj.html_url}/src/feature/x`, color: 0x1ac600 }],
    });
    const deleted = { ref: 'v1', ref_type: 'tag', pusher_type: 'user', repository: proj, sender: ann };
    expect(chatPayload('msteams', 'delete', deleted, ROOT, {})).toMatchObject({
      title: '[acme/proj] tag v1 deleted',
      themeColor: 'ffd930',
      sections: [{ facts: [{ name: 'Repository:', value: 'acme/proj' }, { name: 'tag:', value: 'v1' }] }],
    });
    // Links escape each segment as Go's url.PathEscape does: `+` and `@` stay, parentheses and spaces do not.
    const odd = { ...created, ref: 'fix(ui)/a+b c@d' };
    expect(chatPayload('discord', 'create', odd, ROOT, {})).toMatchObject({ embeds: [{ url: `${proj.html_url}/src/fix%28ui%29/a+b%20c@d` }] });
    expect(chatPayload('slack', 'create', odd, ROOT, {})).toMatchObject({
      text: `[<${proj.html_url}|acme/proj>:<${proj.html_url}/src/branch/fix%28ui%29/a+b%20c@d|fix(ui)/a+b c@d>] branch created by ann`,
    });
  });

  it('should render repository events', () => {
    const created = { action: 'created', repository: proj, organization: proj.owner, sender: ann };
    expect(chatPayload('slack', 'repository', created, ROOT, {})).toMatchObject({
      text: `[<${proj.html_url}|acme/proj>] Repository created by <${ROOT}ann|ann>`,
    });
    expect(chatPayload('discord', 'repository', { ...created, action: 'deleted' }, ROOT, {})).toMatchObject({
      embeds: [{ title: '[acme/proj] Repository deleted', url: '', color: 0xff3232 }],
    });
    expect(chatPayload('msteams', 'repository', created, ROOT, {})).toMatchObject({ title: '[acme/proj] Repository created' });
  });

  it('should render issue and release events from their Gitea payloads', () => {
    const issue = {
      action: 'opened',
      number: 3,
      issue: { id: 30, number: 3, title: 'Bug <x>', body: 'It & breaks', html_url: `${proj.html_url}/issues/3`, url: '', user: ann, assignees: null, milestone: null },
      repository: proj,
      sender: ann,
    };
    expect(chatPayload('slack', 'issues', issue, ROOT, {})).toMatchObject({
      text: `[<${proj.html_url}|acme/proj>] Issue opened: <${proj.html_url}/issues/3|#3 Bug &lt;x&gt;> by <${ROOT}ann|ann>`,
      attachments: [{ color: 'eb6420', title: '#3 Bug &lt;x&gt;', text: 'It &amp; breaks' }],
    });
    const release = { action: 'published', release: { tag_name: 'v1.0', html_url: `${proj.html_url}/releases/tag/v1.0`, body: 'notes' }, repository: proj, sender: ann };
    expect(chatPayload('discord', 'release', release, ROOT, {})).toMatchObject({
      embeds: [{ title: `[acme/proj] Release created: v1.0`, description: 'notes', color: 0x1ac600 }],
    });
  });

  it('should decline events a format does not render', () => {
    expect(chatPayload('slack', 'workflow_run', {}, ROOT, {})).toBeNull();
  });

  describe("Gitea's other chat formats", () => {
    it('should render a push for dingtalk as an action card opening the compare page in the browser', () => {
      expect(chatPayload('dingtalk', 'push', push, ROOT, {})).toMatchObject({
        msgtype: 'actionCard',
        actionCard: {
          title: '[acme/proj:main] 2 new commits',
          text: `[1234567](${c1.url}) Fix the build\n\nLonger text - Ann\r\n[abcdef1](${c2.url}) ${c2.message} - Ann`,
          hideAvatar: '0',
          singleTitle: 'view commits 1234567...abcdef1',
          singleURL: `dingtalk://dingtalkclient/page/link?pc_slide=false&url=${queryEscape(push.compare_url)}`,
        },
      });
    });

    it('should render a push for telegram as escaped HTML with links', () => {
      const p = chatPayload('telegram', 'push', { ...push, commits: [{ ...c1, message: 'a < b & c' }], total_commits: 1 }, ROOT, {});
      expect(p).toEqual({
        text: `[<a href="${proj.html_url}">acme/proj</a>:<a href="${c1.url}">main</a>] 1 new commit\n[<a href="${c1.url}">1234567</a>] a &lt; b &amp; c - Ann`,
        parse_mode: 'HTML',
        disable_web_page_preview: true,
      });
    });

    it('should render a push for matrix with the commits attached and a plain body beside the HTML', () => {
      const p = chatPayload('matrix', 'push', { ...push, commits: [c1], total_commits: 1 }, ROOT, { message_type: '2' });
      expect(p).toEqual({
        body: `[[acme/proj](${proj.html_url})] ann pushed 1 commit to [main](${proj.html_url}/src/branch/main):\n[1234567](${c1.url}): ${c1.message} - Ann`,
        msgtype: 'm.text',
        format: 'org.matrix.custom.html',
        formatted_body: `[<a href="${proj.html_url}">acme/proj</a>] ann pushed 1 commit to <a href="${proj.html_url}/src/branch/main">main</a>:<br><a href="${c1.url}">1234567</a>: ${c1.message} - Ann`,
        'io.gitea.commits': [c1],
      });
    });

    it('should render a push for feishu and wechatwork without a commit count, as Gitea does', () => {
      expect(chatPayload('feishu', 'push', { ...push, commits: [c1] }, ROOT, {})).toEqual({
        msg_type: 'text',
        content: { text: `[acme/proj:main] \r\n[1234567](${c1.url}) Fix the build\n\nLonger text - Ann` },
      });
      expect(chatPayload('wechatwork', 'push', { ...push, commits: [c1] }, ROOT, {})).toMatchObject({
        msgtype: 'markdown',
        markdown: {
          content: `# acme/proj:main <font color="warning">    </font>\r\n\r\n > [1234567](${c1.url}) \r\n ><font color="info">Fix the build\r\nLonger text</font> \n ><font color="warning">Author: Ann</font>`,
        },
      });
    });

    it('should ask packagist to update the package on a push only', () => {
      const meta = { package_url: 'https://packagist.org/packages/acme/proj' };
      expect(chatPayload('packagist', 'push', push, ROOT, meta)).toEqual({ repository: { url: meta.package_url } });
      expect(chatPayload('packagist', 'repository', { action: 'created', repository: proj, organization: null, sender: ann }, ROOT, meta)).toEqual({ repository: { url: '' } });
    });

    it('should render a commit status with the shared status text', () => {
      const status = { commit: c1, context: 'ci', created_at: '', description: 'ok', id: 1, repository: proj, sender: ann, sha: c1.id, state: 'success', target_url: 'https://ci/1', updated_at: '' };
      expect(chatPayload('feishu', 'status', status, ROOT, {})).toEqual({ msg_type: 'text', content: { text: `Commit Status changed: ci [1234567890] - ok by ann` } });
    });
  });
});
