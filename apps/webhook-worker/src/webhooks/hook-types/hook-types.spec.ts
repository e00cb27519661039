import { commit, repo, ROOT, user } from '../../../test/fixtures.js';
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

  it('should render the events of services still to come (issues, releases) from their Gitea payloads', () => {
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
});
