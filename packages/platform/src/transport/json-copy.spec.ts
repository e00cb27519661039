import { jsonCopy } from './json-copy.js';

/** What the transports carried before: the JSON round trip itself. */
const viaText = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

class Entity {
  constructor(
    readonly id: number,
    readonly when: Date,
  ) {}
  get computed(): string {
    return 'not an own property';
  }
}

/** A random JSON-ish value with the awkward cases mixed in, from a seeded generator. */
function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 4 ? 9 : 14));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return [0, -0, 1.5, -7, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER][Math.floor(next() * 7)];
    case 2:
      return ['', 'a', 'ünïcödé', '\u0000', '"quoted"', '__proto__'][Math.floor(next() * 6)];
    case 3:
      return next() < 0.5;
    case 4:
      return undefined;
    case 5:
      return new Date(Math.floor(next() * 2e12));
    case 6:
      return () => 1;
    case 7:
      return Symbol('s');
    case 8:
      return new Map([[1, 2]]);
    default: {
      if (pick === 9) return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
      if (pick === 10) return new Entity(Math.floor(next() * 100), new Date(0));
      if (pick === 11) return next() < 0.5 ? { toJSON: () => ({ replaced: true }) } : { toJSON: () => undefined };
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 6); i > 0; i--) out[['a', 'b', '10', '2', 'x y', 'z'][Math.floor(next() * 6)]!] = randomValue(next, depth + 1);
      return out;
    }
  }
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe(jsonCopy.name, () => {
  it('should answer what the JSON round trip answers, key order included, over many random values', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = seeded(seed);
      const value = { root: randomValue(next, 0), list: [randomValue(next, 1), randomValue(next, 1)] };
      const copied = jsonCopy(value);
      expect(copied).toStrictEqual(viaText(value));
      expect(JSON.stringify(copied)).toBe(JSON.stringify(value));
    }
  });

  it('should turn -0 into 0 and holes and non-finite numbers into null, as JSON does', () => {
    // eslint-disable-next-line no-sparse-arrays
    const copied = jsonCopy({ zero: -0, list: [1, , Number.NaN, undefined] });
    expect(Object.is(copied.zero, 0)).toBe(true);
    expect(copied.list).toEqual([1, null, null, null]);
  });

  it('should judge what a toJSON answers as JSON does: left out of an object, null in an array', () => {
    const gone = { toJSON: () => undefined };
    const fn = Object.assign(() => 1, { toJSON: () => 'from a function' });
    const value = { gone, fn, list: [gone, fn], kept: 1 };
    const copied = jsonCopy(value);
    expect(copied).toStrictEqual(viaText(value));
    expect(Object.keys(copied)).toEqual(['fn', 'list', 'kept']);
    expect(copied.list).toEqual([null, 'from a function']);
  });

  it('should keep a __proto__ key as an own property, never as the copy’s prototype', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const copied = jsonCopy(hostile);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect((copied as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(copied)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(copied)).toBe(JSON.stringify(hostile));
  });

  it('should share nothing with what it copied', () => {
    const value = { nested: { list: [{ a: 1 }] } };
    const copied = jsonCopy(value);
    copied.nested.list[0]!.a = 2;
    expect(value.nested.list[0]!.a).toBe(1);
  });

  it('should fail as JSON fails: a cycle, a bigint', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => jsonCopy(cyclic)).toThrow(TypeError);
    expect(() => jsonCopy({ big: 1n })).toThrow(TypeError);
  });

  it('should copy values deeper than its own walk through JSON', () => {
    let deep: Record<string, unknown> = { leaf: new Date(5) };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    expect(jsonCopy(deep)).toEqual(viaText(deep));
  });
});
