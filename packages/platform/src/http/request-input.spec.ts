import { BodyTooDeep, MAX_BODY_DEPTH, normalizeJsonBody, NulInBody, parseQueryString } from './request-input.js';

describe(normalizeJsonBody.name, () => {
  it('should drop null fields at every depth, as Go leaves them unset', () => {
    expect(normalizeJsonBody({ a: null, b: 'x', c: { d: null, e: [1, null] } })).toEqual({ b: 'x', c: { e: [1, null] } });
  });

  it('should replace lone surrogates with U+FFFD, as Go decodes them', () => {
    expect(normalizeJsonBody({ name: 'x\ud800y', ok: '\ud83d\ude00' })).toEqual({ name: 'x\ufffdy', ok: '\ud83d\ude00' });
  });

  it('should refuse nesting deeper than the limit before anything walks it recursively', () => {
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_BODY_DEPTH; i++) deep = [deep];
    expect(() => normalizeJsonBody(deep)).toThrow(BodyTooDeep);
  });

  it('should refuse NUL characters in values and keys, which no text field can store', () => {
    expect(() => normalizeJsonBody({ title: 'a\u0000b' })).toThrow(NulInBody);
    expect(() => normalizeJsonBody({ list: [{ ['k\u0000']: 'v' }] })).toThrow(NulInBody);
    expect(normalizeJsonBody({ title: 'a\u0001b' })).toEqual({ title: 'a\u0001b' });
  });

  it('should drop keys that would reach a prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as unknown;
    const out = normalizeJsonBody(parsed) as { polluted?: boolean };
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
    expect(out).toEqual({ ok: 1 });
  });
});

describe(parseQueryString.name, () => {
  it('should leave out parameters holding a NUL character, as no column can be compared with them', () => {
    expect(parseQueryString('q=a%00b&labels=x&%00k=v')).toEqual({ labels: 'x' });
    expect(parseQueryString('q=%00&q=second')).toEqual({});
  });

  it('should keep the first of repeated parameters, as Gitea reads them', () => {
    expect(parseQueryString('ref=a&ref=b&page=2')).toEqual({ ref: 'a', page: '2' });
    expect(parseQueryString('q=a+b%20c')).toEqual({ q: 'a b c' });
  });
});
