import { isScalar, LineCounter, parseDocument, visit, YAMLParseError } from 'yaml';

type YamlOptions = NonNullable<Parameters<typeof parseDocument>[1]>;

/**
 * `parseDocument` with duplicate mapping keys refused, as Gitea's yaml.v3 refuses them: each one is
 * a `DUPLICATE_KEY` error in `doc.errors`, in document order, with the yaml library's own message.
 * The library's `uniqueKeys` check compares each key with every earlier key of its mapping, so a
 * user's file of 50k keys stalled the process for most of a minute; here each mapping keeps a Set
 * of the keys it has seen, in time linear in the file.
 *
 * Scalar keys are compared by their string value, the key they become in JavaScript: `1` and `"1"`
 * would otherwise overwrite each other unnoticed (yaml.v3 compares source strings and refuses
 * them too). Other keys (a sequence or mapping as a key, an alias) are never duplicates, as before.
 */
export function parseYamlDocument(text: string, options: YamlOptions = {}): ReturnType<typeof parseDocument> {
  const pretty = options.prettyErrors !== false;
  const lineCounter = options.lineCounter ?? (pretty ? new LineCounter() : undefined);
  const doc = parseDocument(text, { ...options, lineCounter, uniqueKeys: false });
  const duplicates: YAMLParseError[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        const name = String(key.value);
        if (!seen.has(name)) {
          seen.add(name);
          continue;
        }
        const start = key.range?.[0] ?? -1;
        const error = new YAMLParseError([start, start + 1], 'DUPLICATE_KEY', 'Map keys must be unique');
        if (pretty && lineCounter && start >= 0) {
          // The library's pretty errors also quote the line; the first line of the message is what callers show.
          error.linePos = [lineCounter.linePos(start), lineCounter.linePos(start + 1)];
          error.message += ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}`;
        }
        duplicates.push(error);
      }
    },
  });
  if (duplicates.length > 0) {
    // Callers report the first error, so the duplicates go in among the parser's errors by position.
    doc.errors = [...doc.errors, ...duplicates].sort((a, b) => a.pos[0] - b.pos[0]);
  }
  return doc;
}
