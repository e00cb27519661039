/**
 * A stand-in for a class whose every method fails unless the test gives it one, so a call
 * nobody expected fails the test (immich's test/utils.ts idea). For unit specs only.
 */
export function strictMock<T extends object>(cls: abstract new (...args: never[]) => T, impl: Partial<T> = {}): T {
  const mock: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(cls.prototype)) {
    if (name === 'constructor') continue;
    mock[name] =
      (impl as Record<string, unknown>)[name] ??
      (() => {
        throw new Error(`unexpected call to ${cls.name}.${name}`);
      });
  }
  return mock as T;
}
