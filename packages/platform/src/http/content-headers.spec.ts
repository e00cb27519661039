import { contentDisposition } from './content-headers.js';

describe(contentDisposition.name, () => {
  it("should write names as Go's mime.FormatMediaType does", () => {
    expect(contentDisposition('inline', 'README.md')).toBe('inline; filename=README.md');
    expect(contentDisposition('attachment', 'my file "1".bin')).toBe('attachment; filename="my file \\"1\\".bin"');
    expect(contentDisposition('inline', '日本.txt')).toBe("inline; filename*=utf-8''%E6%97%A5%E6%9C%AC.txt");
    expect(contentDisposition('inline', 'a\nb.txt')).toBe("inline; filename*=utf-8''a%0Ab.txt");
  });
});
