/**
 * The compiled script `name` (a `.js` file without its extension) beside the module at
 * `moduleUrl`, for a worker thread or a child process to run. Tests run modules from their
 * TypeScript sources (ts-jest), where the script exists only in the package's `dist/`, as built
 * by `npm test`'s build step: a module under the package's `src/` finds it at the same place
 * under `dist/`.
 */
export function compiledScript(moduleUrl: string, name: string): URL {
  const beside = new URL(`./${name}.js`, moduleUrl);
  if (!moduleUrl.endsWith('.ts')) return beside;
  const at = beside.href.lastIndexOf('/src/');
  return new URL(`${beside.href.slice(0, at)}/dist/${beside.href.slice(at + '/src/'.length)}`);
}
