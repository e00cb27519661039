import { parseIssueConfig, parseIssueTemplate, TemplateError, templateType } from './issue-template.parser.js';

describe('issue template parser', () => {
  it('should read a Markdown template’s front matter and keep the rest as content', () => {
    const t = parseIssueTemplate(
      '.gitea/ISSUE_TEMPLATE/bug.md',
      '---\nname: Bug\nabout: Report a bug\ntitle: "[BUG] "\nlabels: bug, needs triage\nassignees: [alice]\nref: main\n---\nSteps:\n',
    );
    expect(t).toEqual({
      name: 'Bug',
      title: '[BUG] ',
      about: 'Report a bug',
      labels: ['bug', 'needs triage'],
      assignees: ['alice'],
      ref: 'refs/heads/main',
      content: 'Steps:\n',
      body: null,
      file_name: '.gitea/ISSUE_TEMPLATE/bug.md',
    });
  });

  it('should take a Markdown file without usable front matter whole, named after the file', () => {
    const t = parseIssueTemplate('ISSUE_TEMPLATE/plain.md', 'Describe the problem.\n');
    expect(t).toMatchObject({ name: 'plain.md', about: 'Describe the problem.\n', content: 'Describe the problem.\n', ref: 'refs/heads/' });
    const broken = parseIssueTemplate('ISSUE_TEMPLATE/broken.md', '---\nname: [unclosed\n---\nbody\n');
    expect(broken.name).toBe('broken.md');
    expect(broken.content).toBe('---\nname: [unclosed\n---\nbody\n');
  });

  it('should read an issue form, filling in ids and visibility, and accept description for about', () => {
    const t = parseIssueTemplate(
      '.github/ISSUE_TEMPLATE/form.yaml',
      [
        'name: Form',
        'description: A form',
        'ref: refs/tags/v1',
        'body:',
        '  - type: markdown',
        '    attributes: { value: "Thanks" }',
        '  - type: input',
        '    attributes: { label: Version }',
        '    validations: { required: true }',
        '  - type: dropdown',
        '    id: os',
        '    attributes: { label: OS, options: [linux, mac] }',
        '    visible: [form]',
      ].join('\n'),
    );
    expect(t.about).toBe('A form');
    expect(t.ref).toBe('refs/tags/v1');
    expect(t.content).toBe('');
    expect(t.body).toEqual([
      { type: 'markdown', id: '0', attributes: { value: 'Thanks' }, validations: null, visible: ['form'] },
      { type: 'input', id: '1', attributes: { label: 'Version' }, validations: { required: true }, visible: ['form', 'content'] },
      { type: 'dropdown', id: 'os', attributes: { label: 'OS', options: ['linux', 'mac'] }, validations: null, visible: ['form'] },
    ]);
  });

  it.each([
    ['name: X\n', "'about' is required"],
    ['about: X\n', "'name' is required"],
    ['name: X\nabout: Y\n', "'body' is required"],
    ['name: X\nabout: Y\nbody:\n  - type: radio\n    attributes: { label: L }\n', 'body[0](radio): unknown type'],
    ['name: X\nabout: Y\nbody:\n  - type: input\n    id: a b\n    attributes: { label: L }\n', "body[0](input): 'id' should contain only alphanumeric, '-' and '_'"],
    ['name: X\nabout: Y\nbody:\n  - type: input\n    id: a\n    attributes: { label: L }\n  - type: textarea\n    id: a\n    attributes: { label: M }\n', "body[1](textarea): 'id' should be unique"],
    ['name: X\nabout: Y\nbody:\n  - type: input\n    attributes: {}\n', "body[0](input): 'label' is required"],
    ['name: X\nabout: Y\nbody:\n  - type: dropdown\n    attributes: { label: L }\n', "body[0](dropdown): 'options' is required and should be a array"],
    ['name: X\nabout: Y\nbody:\n  - type: checkboxes\n    attributes: { label: L, options: [x] }\n', 'body[0](checkboxes), option[0]: should be a dictionary'],
    ['name: X\nabout: Y\nbody:\n  - type: input\n    attributes: { label: L }\n    validations: { required: yes-please }\n', "body[0](input): 'required' should be a bool"],
  ])('should refuse an invalid issue form %#', (content, message) => {
    expect(() => parseIssueTemplate('ISSUE_TEMPLATE/f.yml', content)).toThrow(new TemplateError(message));
  });

  it('should refuse YAML that is no mapping or does not parse', () => {
    expect(() => parseIssueTemplate('ISSUE_TEMPLATE/f.yml', '- a\n- b\n')).toThrow(TemplateError);
    expect(() => parseIssueTemplate('ISSUE_TEMPLATE/f.yml', 'name: [x\n')).toThrow(TemplateError);
  });

  it('should refuse YAML with a duplicate key, as Gitea’s yaml.v3 does', () => {
    expect(() => parseIssueTemplate('ISSUE_TEMPLATE/f.yml', 'name: X\nabout: Y\nname: Z\n')).toThrow(new TemplateError('yaml: Map keys must be unique'));
    expect(() => parseIssueConfig('blank_issues_enabled: true\nblank_issues_enabled: false\n')).toThrow(new TemplateError('yaml: Map keys must be unique'));
  });

  it('should refuse YAML whose aliases expand past the parser’s limit as an invalid template, not a fault', () => {
    const nine = (name: string) => `[${Array(9).fill(name).join(',')}]`;
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', `b: &b ${nine('*a')}`, `c: &c ${nine('*b')}`, `d: &d ${nine('*c')}`, `e: &e ${nine('*d')}`].join('\n');
    expect(() => parseIssueTemplate('ISSUE_TEMPLATE/f.yml', `${bomb}\nname: X\nabout: Y\nbody: *e\n`)).toThrow(TemplateError);
    expect(() => parseIssueConfig(`${bomb}\ncontact_links: *e\n`)).toThrow(TemplateError);
    // In front matter, Gitea takes the whole file as the template's content.
    expect(parseIssueTemplate('ISSUE_TEMPLATE/f.md', `---\n${bomb}\nname: X\n---\nhi`).name).toBe('f.md');
  });

  it('should know which files are templates', () => {
    expect(['a.md', 'a.yaml', 'a.yml', 'config.yml', 'config.yaml', 'a.txt'].map(templateType)).toEqual(['md', 'yaml', 'yaml', null, null, null]);
  });

  it('should read the issue config with Gitea’s defaults and checks', () => {
    expect(parseIssueConfig('')).toEqual({ blank_issues_enabled: true, contact_links: [] });
    expect(parseIssueConfig('blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example.com\n    about: Ask there\n')).toEqual({
      blank_issues_enabled: false,
      contact_links: [{ name: 'Forum', url: 'https://forum.example.com', about: 'Ask there' }],
    });
    expect(() => parseIssueConfig('contact_links:\n  - name: Forum\n    about: x\n')).toThrow(new TemplateError('contact_link at position 1 is missing url key'));
    expect(() => parseIssueConfig('contact_links:\n  - name: F\n    url: forum\n    about: x\n')).toThrow(new TemplateError('forum is not a valid URL'));
    expect(() => parseIssueConfig('blank_issues_enabled: maybe\n')).toThrow(TemplateError);
  });
});
