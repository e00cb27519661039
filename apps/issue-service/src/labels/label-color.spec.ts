import { ContractError } from '@gitforge/contracts';
import { parseLabelColor } from './label-color.js';

describe(parseLabelColor.name, () => {
  it('should store six digits with a leading # in lower case', () => {
    expect(parseLabelColor('#EE0701')).toBe('#ee0701');
    expect(parseLabelColor('ee0701')).toBe('#ee0701');
  });

  it('should expand three digits', () => {
    expect(parseLabelColor('#AbC')).toBe('#aabbcc');
    expect(parseLabelColor('f0a')).toBe('#ff00aa');
  });

  it('should trim surrounding spaces', () => {
    expect(parseLabelColor('  #00aabb \t')).toBe('#00aabb');
  });

  it.each(['', '#', '#12', '#1234', '12345', '#1234567', 'ggg', '#00aab g', 'red', '##00aabb'])(
    'should reject %j with 422 "invalid color: …"',
    (bad) => {
      let caught: unknown;
      try {
        parseLabelColor(bad);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(ContractError);
      expect(caught).toMatchObject({ code: 'unprocessable', message: `invalid color: ${bad.trim()}` });
    },
  );
});
