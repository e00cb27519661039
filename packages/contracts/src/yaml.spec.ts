import { parseYamlDocument } from './yaml.js';

describe('parseYamlDocument', () => {
  it.each([
    ['a: 1\na: 2\n', 2],
    ['{a: 1, b: 2, a: 3}', 1],
    ['outer:\n  x: 1\n  y: 2\n  x: 3\n', 4],
    ['- a: 1\n  a: 2\n', 2],
    ['1: x\n"1": y\n', 2],
    ['~: x\nnull: y\n', 2],
  ])('should refuse the duplicate key of %j as the yaml library did', (text, line) => {
    const doc = parseYamlDocument(text);
    expect(doc.errors).toHaveLength(1);
    expect(doc.errors[0]).toMatchObject({ code: 'DUPLICATE_KEY', message: expect.stringMatching(new RegExp(`^Map keys must be unique at line ${line}, column \\d+$`)) });
  });

  it('should keep the plain message without pretty errors, and list errors in document order', () => {
    expect(parseYamlDocument('a: 1\na: 2\n', { prettyErrors: false }).errors.map((e) => e.message)).toEqual(['Map keys must be unique']);
    const doc = parseYamlDocument('a: 1\na: 2\nb: [\n', { prettyErrors: false });
    expect(doc.errors[0]!.code).toBe('DUPLICATE_KEY');
    expect(doc.errors.length).toBeGreaterThan(1);
  });

  it('should accept the same key in different mappings, and keys that are no scalars', () => {
    expect(parseYamlDocument('a: {x: 1}\nb: {x: 2}\n').errors).toEqual([]);
    expect(parseYamlDocument('? [a]\n: 1\n? [a]\n: 2\n').errors).toEqual([]);
    expect(parseYamlDocument('a: &k x\n*k : 1\n').errors).toEqual([]);
  });

  it('should parse a mapping of 50k keys', () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `key${i}: ${i}\n`).join('');
    const doc = parseYamlDocument(text);
    expect(doc.errors).toEqual([]);
    expect((doc.toJS() as Record<string, number>).key49999).toBe(49_999);
    expect(parseYamlDocument(`${text}key7: again\n`).errors.map((e) => e.code)).toEqual(['DUPLICATE_KEY']);
  });
});
