// Validates deploy/k8s against the Kubernetes API schemas, offline (CI reaches only the npm
// registry and Debian's mirror, so kubeconform and its schema downloads are out of reach).
// The schemas come from `kubernetes-models`, generated from Kubernetes' OpenAPI document:
// - its runtime validators check types, required fields, enums and formats (int32,
//   int-or-string, quantities), as the API server's schema validation does;
// - its TypeScript interfaces, through the type checker's excess-property check on each
//   manifest as an object literal, refuse any field the schema does not define, as
//   kubeconform's -strict does (a misspelt `periodSecondz` is an error, not ignored).
// The kustomization's resources must exist and each manifest must belong to one of them.
//   node scripts/validate-k8s.mjs [dir]   (exit 1 with every problem listed)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

const dir = resolve(process.argv[2] ?? 'deploy/k8s');
const problems = [];

/** `apps/v1` + `Deployment` → `kubernetes-models/apps/v1/Deployment` (the core group is `v1`). */
function modelPath(apiVersion, kind) {
  return `kubernetes-models/${apiVersion}/${kind}`;
}

const files = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml')
  .sort();
const manifests = [];
for (const file of files) {
  const docs = parseAllDocuments(readFileSync(join(dir, file), 'utf8'));
  docs.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      for (const err of doc.errors) problems.push(`${file}#${index}: YAML: ${err.message}`);
      return;
    }
    const value = doc.toJS();
    if (value === null) return;
    const where = `${file}#${index} (${value?.kind ?? '?'} ${value?.metadata?.name ?? '?'})`;
    if (typeof value?.apiVersion !== 'string' || typeof value?.kind !== 'string') {
      problems.push(`${where}: apiVersion and kind are required`);
      return;
    }
    manifests.push({ file, index, where, value });
  });
}

// Runtime schema validation, per kind.
for (const m of manifests) {
  const path = modelPath(m.value.apiVersion, m.value.kind);
  let Model;
  try {
    Model = (await import(path))[m.value.kind];
    if (!Model) throw new Error('no model');
  } catch {
    problems.push(`${m.where}: no schema for ${m.value.apiVersion} ${m.value.kind}`);
    continue;
  }
  m.model = path;
  try {
    new Model(m.value).validate();
  } catch (err) {
    problems.push(`${m.where}: ${err.message}`);
  }
}

// Strict fields: each manifest as an object literal of its kind's interface, through the type checker.
const checked = manifests.filter((m) => m.model);
const source = [
  ...checked.map((m, i) => `import type { I${m.value.kind} as K${i} } from ${JSON.stringify(m.model)};`),
  ...checked.map((m, i) => `export const m${i}: K${i} = ${JSON.stringify(m.value, null, 1)};`),
].join('\n');
const virtual = join(process.cwd(), '__k8s_manifests__.ts');
const options = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
};
const host = ts.createCompilerHost(options);
const readFile = host.readFile.bind(host);
const fileExists = host.fileExists.bind(host);
const getSourceFile = host.getSourceFile.bind(host);
host.readFile = (f) => (f === virtual ? source : readFile(f));
host.fileExists = (f) => f === virtual || fileExists(f);
host.getSourceFile = (f, lang, ...rest) =>
  f === virtual ? ts.createSourceFile(f, source, lang) : getSourceFile(f, lang, ...rest);
const program = ts.createProgram([virtual], options, host);
for (const d of ts.getPreEmitDiagnostics(program)) {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n  ');
  if (!d.file || d.file.fileName !== virtual) {
    problems.push(`type check: ${message}`);
    continue;
  }
  // Which manifest: the declaration the error sits in.
  const line = d.file.getLineAndCharacterOfPosition(d.start ?? 0).line;
  const declLine = source
    .split('\n')
    .slice(0, line + 1)
    .reduce((found, text, i) => (/^export const m(\d+):/.test(text) ? i : found), -1);
  const n = Number(/^export const m(\d+):/.exec(source.split('\n')[declLine] ?? '')?.[1]);
  const where = Number.isInteger(n) ? checked[n].where : 'manifests';
  problems.push(`${where}: ${message}`);
}

// The kustomization lists every manifest file, and only existing ones.
const kustomization = join(dir, 'kustomization.yaml');
if (existsSync(kustomization)) {
  const k = parseAllDocuments(readFileSync(kustomization, 'utf8'))[0].toJS();
  const listed = new Set(k.resources ?? []);
  for (const r of listed)
    if (!existsSync(join(dir, r))) problems.push(`kustomization.yaml: resource ${r} does not exist`);
  for (const f of files)
    if (!listed.has(f)) problems.push(`kustomization.yaml: ${f} is not listed in resources`);
}

if (problems.length > 0) {
  console.error(
    `${basename(dir)}: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`,
  );
  process.exit(1);
}
console.log(
  `${basename(dir)}: ${manifests.length} manifests in ${files.length} files valid against the Kubernetes schemas (strict fields)`,
);
