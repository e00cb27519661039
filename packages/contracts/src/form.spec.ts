import { formBool } from './form.js';

describe(formBool.name, () => {
  it("should read Go's true spellings and `on` as true, anything else as false", () => {
    for (const v of ['1', 't', 'T', 'true', 'TRUE', 'True', 'on', 'ON', 'On']) expect([v, formBool(v)]).toEqual([v, true]);
    for (const v of [undefined, '', '0', 'f', 'false', 'yes', 'tRUE', 'onn', ' true']) expect([v, formBool(v)]).toEqual([v, false]);
  });
});
