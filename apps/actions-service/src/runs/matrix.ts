import { hasExpression } from './expression.js';
import { WorkflowError } from './workflow-error.js';

/** One combination of a job's matrix: each key's value, vectors first in their written order, then what `include` added. */
export type MatrixValues = Record<string, unknown>;

/** Most combinations one job's matrix may have (GitHub's limit); more fails the run with a reason. */
export const MAX_MATRIX_COMBINATIONS = 256;

const isMapping = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Structural equality of two YAML values (act compares matrix values with reflect.DeepEqual). */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isMapping(a) && isMapping(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Whether a value still holds an expression (a matrix computed at run time, e.g. from `fromJSON`). */
const holdsExpression = (v: unknown): boolean =>
  typeof v === 'string' ? hasExpression(v) : Array.isArray(v) ? v.some(holdsExpression) : isMapping(v) ? Object.values(v).some(holdsExpression) : false;

function mappings(value: unknown, where: string): Record<string, unknown>[] {
  // act takes a single mapping as well as a list of them.
  const list = Array.isArray(value) ? value : [value];
  for (const entry of list) {
    if (!isMapping(entry)) throw new WorkflowError(`${where} must be a list of mappings`);
  }
  return list as Record<string, unknown>[];
}

/**
 * A job's matrix combinations as GitHub and act form them: the product of the vectors (first key
 * outermost), less what an `exclude` entry matches (all its keys equal), then each `include` entry
 * merged into every combination whose original vector values it does not change, or added as a
 * combination of its own when it changes them all. Null when the job has no matrix to expand here
 * (none, or one computed by an expression, which Gitea leaves to the runner as one job).
 */
export function matrixCombinations(strategy: unknown, jobKey: string): MatrixValues[] | null {
  if (strategy === undefined || strategy === null) return null;
  if (!isMapping(strategy)) {
    if (typeof strategy === 'string' && hasExpression(strategy)) return null;
    throw new WorkflowError(`jobs.${jobKey}.strategy must be a mapping`);
  }
  const raw = strategy.matrix;
  if (raw === undefined || raw === null) return null;
  const where = `jobs.${jobKey}.strategy.matrix`;
  if (!isMapping(raw)) {
    if (typeof raw === 'string' && hasExpression(raw)) return null;
    throw new WorkflowError(`${where} must be a mapping`);
  }
  if (holdsExpression(raw)) return null;

  const vectors = new Map<string, unknown[]>();
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'include' || key === 'exclude') continue;
    if (!Array.isArray(value)) throw new WorkflowError(`${where}.${key} must be a list of values`);
    vectors.set(key, value);
  }
  const includes = raw.include === undefined || raw.include === null ? [] : mappings(raw.include, `${where}.include`);
  // act keeps an exclude once per key it names, so an empty one excludes nothing (Gitea accepts it).
  const excludes = (raw.exclude === undefined || raw.exclude === null ? [] : mappings(raw.exclude, `${where}.exclude`)).filter((e) => Object.keys(e).length > 0);
  for (const exclude of excludes) {
    for (const key of Object.keys(exclude)) {
      // GitHub fails an exclude naming a key the matrix lacks (an include with one is simply extra).
      if (!vectors.has(key)) throw new WorkflowError(`${where}.exclude: key ${key} does not match any key within the matrix`);
    }
  }

  let size = vectors.size > 0 ? 1 : 0;
  for (const values of vectors.values()) size *= values.length;
  const tooMany = (): WorkflowError => new WorkflowError(`${where} has more than ${MAX_MATRIX_COMBINATIONS} combinations`);
  // Judged before the product is formed: a few long vectors must not make millions of objects.
  if (size > MAX_MATRIX_COMBINATIONS) throw tooMany();

  let product: MatrixValues[] = size > 0 ? [{}] : [];
  for (const [key, values] of vectors) {
    product = product.flatMap((combo) => values.map((value) => ({ ...combo, [key]: value })));
  }
  const combos = product.filter((combo) => !excludes.some((exclude) => Object.entries(exclude).every(([k, v]) => deepEqual(combo[k], v))));

  const extra: MatrixValues[] = [];
  for (const include of includes) {
    // An entry naming no vector key changes no original value, so it joins every combination
    // (act's commonKeysMatch2; GitHub's `color: green` example); only with no vectors is it one of its own.
    let matched = false;
    for (const combo of combos) {
      const keepsOriginals = Object.keys(combo).every((k) => !vectors.has(k) || !(k in include) || deepEqual(combo[k], include[k]));
      if (keepsOriginals) {
        Object.assign(combo, include);
        matched = true;
      }
    }
    if (!matched) extra.push({ ...include });
  }
  const all = [...combos, ...extra];
  if (all.length > MAX_MATRIX_COMBINATIONS) throw tooMany();
  if (all.length === 0) throw new WorkflowError(`${where} has no combinations`);
  return all;
}

/** Byte order of the UTF-8 forms, as Go's string comparison and sort.Strings order. */
const compareBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A value as Go's fmt.Sprint prints what yaml.v3 decoded: `<nil>`, `[a b]`, `map[k:v]` (keys sorted). */
function goSprint(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : value === Infinity ? '+Inf' : value === -Infinity ? '-Inf' : String(value);
  if (Array.isArray(value)) return `[${value.map(goSprint).join(' ')}]`;
  if (isMapping(value)) {
    const keys = Object.keys(value).sort(compareBytes);
    return `map[${keys.map((k) => `${k}:${goSprint(value[k])}`).join(' ')}]`;
  }
  return String(value);
}

/**
 * The suffix Gitea's jobparser (matrixName) gives a matrix job's name: every value, its keys in
 * sorted order, as Go prints it, ` (18, ubuntu)` for `{os: ubuntu, node: 18}`; none for an empty one.
 */
export function matrixNameSuffix(values: MatrixValues): string {
  const keys = Object.keys(values).sort(compareBytes);
  return keys.length > 0 ? ` (${keys.map((k) => goSprint(values[k])).join(', ')})` : '';
}

/** Gitea's order of a matrix job's rows: by their name suffixes, stable for equal ones. */
export function sortCombinations(combos: MatrixValues[]): MatrixValues[] {
  return combos
    .map((values, index) => ({ values, index, suffix: matrixNameSuffix(values) }))
    .sort((a, b) => compareBytes(a.suffix, b.suffix) || a.index - b.index)
    .map((c) => c.values);
}
