import { compileEditorConfig, editorconfigProps } from './repo-files.service.js';

const props = (path: string, content: string) => Object.fromEntries(editorconfigProps(path, compileEditorConfig(Buffer.from(content))));

describe('editorconfigProps', () => {
  it('should apply matching sections in order, unset, and the indent defaults', () => {
    const file = 'root = true\n[*]\nindent_style = space\nindent_size = 4\ncharset = UTF-8\n[*.go]\nindent_style = Tab\nindent_size = unset\n[Makefile]\nindent_style = tab\ntab_width = 8\n';
    expect(props('src/a.txt', file)).toEqual({ indent_style: 'space', indent_size: '4', tab_width: '4', charset: 'utf-8' });
    expect(props('cmd/main.go', file)).toEqual({ indent_style: 'tab', indent_size: 'tab', charset: 'utf-8' });
    expect(props('sub/Makefile', file)).toEqual({ indent_style: 'tab', indent_size: '4', tab_width: '8', charset: 'utf-8' });
  });

  // A repository's `.editorconfig` is anyone's input: globs a backtracking or expanding matcher
  // would take minutes on must answer at once (a hang here fails the test by its timeout).
  it('should not stall on hostile globs', () => {
    const file = `[${'*a'.repeat(30)}b]\nindent_size = 1\n[{1..1000000000}]\nindent_size = 2\n[${'{a,b}'.repeat(40)}]\nindent_size = 3\n[*]\ncharset = latin1\n`;
    expect(props('a'.repeat(2000), file)).toEqual({ charset: 'latin1' });
    expect(props('ab'.repeat(20), file)).toEqual({ indent_size: '3', tab_width: '3', charset: 'latin1' });
  });

  // Each of these sections compiles to some 60 KB of expression, a fifth of a second each: past the
  // file's budget the rest match nothing, and the file answers at once.
  it('should compile a file of many large sections within one budget', () => {
    const large = '{0..999}'.repeat(9);
    const file = `[*]\ncharset = latin1\n${Array.from({ length: 100 }, (_, i) => `[${large}${i}]\nindent_size = ${i}\n`).join('')}[*.md]\nindent_style = tab\n`;
    const compiled = compileEditorConfig(Buffer.from(file));
    expect(compiled.sections.filter((section) => section.pattern !== null)).toHaveLength(2);
    expect(Object.fromEntries(editorconfigProps('999999999999999999990', compiled))).toEqual({ charset: 'latin1', indent_size: '0', tab_width: '0' });
    expect(Object.fromEntries(editorconfigProps('12345678999', compiled))).toEqual({ charset: 'latin1' });
    expect(Object.fromEntries(editorconfigProps('a.md', compiled))).toEqual({ charset: 'latin1' });
  });
});
