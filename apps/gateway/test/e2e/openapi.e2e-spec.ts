import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Repository } from '@gitforge/contracts';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

/** Gitea's published document (swagger 2.0), vendored beside this spec. */
const GITEA = JSON.parse(
  readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../openapi/gitea-openapi-v1.json'), 'utf8'),
) as Swagger2;

interface Swagger2 {
  paths: Record<
    string,
    Record<
      string,
      { operationId: string; parameters?: Array<{ in: string; name: string; schema?: { $ref?: string } }> }
    >
  >;
  definitions: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
}
interface OpenApi3 {
  openapi: string;
  info: { version: string };
  servers: Array<{ url: string }>;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        tags: string[];
        parameters?: Array<{ in: string; name: string }>;
        requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
      }
    >
  >;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The part of Swagger UI's system the browser test reads: its operations grouped by tag. */
interface SwaggerUiModel {
  specSelectors: { taggedOperations(): { get(tag: string): { get(key: 'operations'): { size: number } } } };
}
const shape = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

/** Which of Gitea's operations the document serves, which it lacks, and where request shapes differ. */
function coverage(ours: OpenApi3): {
  served: string[];
  lacking: string[];
  extra: string[];
  differences: string[];
} {
  const mine = new Map<string, OpenApi3['paths'][string][string]>();
  for (const [path, item] of Object.entries(ours.paths))
    for (const m of METHODS) if (item[m]) mine.set(`${m.toUpperCase()} ${shape(path)}`, item[m]);
  const served: string[] = [];
  const lacking: string[] = [];
  const differences: string[] = [];
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(GITEA.paths)) {
    for (const m of METHODS) {
      const theirs = item[m];
      if (!theirs) continue;
      const key = `${m.toUpperCase()} ${shape(path)}`;
      seen.add(key);
      const op = mine.get(key);
      if (!op) {
        lacking.push(`${theirs.operationId} (${m.toUpperCase()} ${path})`);
        continue;
      }
      served.push(theirs.operationId);
      if (op.operationId !== theirs.operationId)
        differences.push(`${theirs.operationId}: operationId is ${op.operationId}`);
      const theirQuery = (theirs.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const ourQuery = new Set((op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
      const undocumented = theirQuery.filter((q) => !ourQuery.has(q));
      if (undocumented.length > 0)
        differences.push(`${theirs.operationId}: query not described: ${undocumented.join(', ')}`);
      const theirBody = (theirs.parameters ?? [])
        .find((p) => p.in === 'body')
        ?.schema?.$ref?.replace('#/definitions/', '');
      const ourBody = op.requestBody?.content['application/json']?.schema.$ref?.replace(
        '#/components/schemas/',
        '',
      );
      if (theirBody && !ourBody)
        differences.push(`${theirs.operationId}: no request body (Gitea: ${theirBody})`);
      if (theirBody && ourBody) {
        if (theirBody !== ourBody)
          differences.push(`${theirs.operationId}: body ${ourBody}, Gitea ${theirBody}`);
        const theirProps = Object.keys(GITEA.definitions[theirBody]?.properties ?? {});
        const ourProps = new Set(Object.keys(ours.components.schemas[ourBody]?.properties ?? {}));
        const missing = theirProps.filter((p) => !ourProps.has(p));
        if (missing.length > 0)
          differences.push(`${theirs.operationId}: ${ourBody} lacks ${missing.join(', ')}`);
      }
    }
  }
  const extra = [...mine.keys()].filter((k) => !seen.has(k));
  return { served, lacking, extra, differences };
}

describe.each(layoutsUnderTest())('OpenAPI document and Swagger UI (%s layout)', (kind) => {
  let layout: Layout;
  let alice: TestUser;
  let doc: OpenApi3;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    alice = await createUser(new Api(layout), 'swagger');
    const res = await fetch(`${layout.rootUrl}swagger.v1.json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as OpenApi3;
  });

  afterAll(async () => {
    await layout?.stop();
  });

  it('should serve one document at /swagger.v1.json and /api/v1/swagger, for this server', async () => {
    const again = await fetch(`${layout.rootUrl}api/v1/swagger`);
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await again.json()).toEqual(doc);
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.servers).toEqual([{ url: `${layout.rootUrl}api/v1` }]);
    expect(doc.info.version).toBe(
      ((await (await fetch(`${layout.apiUrl}/version`)).json()) as { version: string }).version,
    );
  });

  it("should describe the real routes under Gitea's operation ids, tags and definition names", () => {
    expect(doc.paths['/repos/{owner}/{repo}']!.get).toMatchObject({
      operationId: 'repoGet',
      tags: ['repository'],
    });
    expect(doc.paths['/user/repos']!.post).toMatchObject({
      operationId: 'createCurrentUserRepo',
      requestBody: {
        content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateRepoOption' } } },
      },
    });
    // From the contracts DTO's validation rules: the properties and which are required.
    expect(doc.components.schemas.CreateRepoOption).toMatchObject({
      required: ['name'],
      properties: { name: { type: 'string' }, private: { type: 'boolean' } },
    });
    // The gateway's routes only: no internal or health route, and every id unique.
    expect(Object.keys(doc.paths).every((p) => !p.startsWith('/api/'))).toBe(true);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('should be valid OpenAPI 3.0: every $ref resolves, every type is one OpenAPI knows, every path parameter is declared', () => {
    const problems: string[] = [];
    const types = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string']);
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}/${i}`));
      else if (typeof value === 'object' && value !== null) {
        for (const [key, v] of Object.entries(value)) {
          if (key === '$ref' && typeof v === 'string') {
            const name = v.replace('#/components/schemas/', '');
            if (!v.startsWith('#/components/schemas/') || !doc.components.schemas[name])
              problems.push(`${at}: $ref ${v} resolves to nothing`);
          } else if (key === 'type' && typeof v === 'string' && !at.endsWith('/properties')) {
            if (!types.has(v)) problems.push(`${at}: type ${v}`);
          } else {
            walk(v, `${at}/${key}`);
          }
        }
      }
    };
    walk(doc.paths, '#/paths');
    walk(doc.components.schemas, '#/components/schemas');
    // Each `{name}` of a path is a required path parameter of its operations (Swagger UI asks for it).
    for (const [path, item] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
      for (const [method, op] of Object.entries(item)) {
        const declared = (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort();
        if (declared.join() !== names.join())
          problems.push(`${method.toUpperCase()} ${path}: path parameters [${declared.join()}]`);
      }
    }
    expect(problems).toEqual([]);
    // Nested DTOs are described by their own classes, e.g. the files of a multi-file commit.
    expect(doc.components.schemas.ChangeFilesOptions?.properties?.files).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/ChangeFileOperation' },
    });
  });

  it("should print which of Gitea's operations are served, lacking, or differ in shape", () => {
    const { served, lacking, extra, differences } = coverage(doc);
    const total = served.length + lacking.length;
    console.log(
      [
        `OpenAPI coverage against Gitea's swagger.v1.json (${kind}): ${served.length} of ${total} operations served (${((100 * served.length) / total).toFixed(1)}%), ${lacking.length} lacking, ${extra.length} of ours not in Gitea's, ${differences.length} shape differences`,
        '',
        `SERVED (${served.length}):`,
        ...served.map((s) => `  ${s}`),
        '',
        `LACKING (${lacking.length}):`,
        ...lacking.map((s) => `  ${s}`),
        '',
        `OURS ONLY (${extra.length}):`,
        ...extra.map((s) => `  ${s}`),
        '',
        `SHAPE DIFFERENCES (${differences.length}):`,
        ...differences.map((s) => `  ${s}`),
      ].join('\n'),
    );
    expect(served.length).toBeGreaterThan(250);
    // Where a route mirrors a Gitea operation it carries Gitea's id (checked per operation above).
    expect(differences.filter((d) => d.includes('operationId is'))).toEqual([]);
  });

  it('should render the operations in a real browser and run one "Try it out"', async () => {
    const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
    if (!executablePath)
      throw new Error("Debian's chromium is not installed (apt-get install chromium; .ci/run does it)");
    const repo = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('browsed') })).body;
    const browser = await chromium.launch({
      executablePath,
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
    try {
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on('pageerror', (err) => failures.push(err.message));
      await page.goto(`${layout.rootUrl}api/swagger`);
      // Operations render from the document, grouped by Gitea's tags (folded at first), by Gitea's ids.
      const tag = page.locator('#operations-tag-repository');
      await tag.waitFor({ timeout: 30_000 });
      expect(await page.locator('.opblock-tag').allInnerTexts()).toEqual(
        expect.arrayContaining(['admin', 'issue', 'organization', 'repository', 'user']),
      );
      await tag.click();
      await page.locator('#operations-repository-repoGet').waitFor({ timeout: 30_000 });
      // Every operation of the tag is in the page's model; from 150 rows on, Swagger UI renders
      // only those in view (a window virtualizer), so the DOM holds a screenful of them.
      const inDocument = Object.values(doc.paths).flatMap((item) => METHODS.filter((m) => item[m]?.tags.includes('repository'))).length;
      expect(inDocument).toBeGreaterThan(100);
      expect(
        await page.evaluate(() => (globalThis as unknown as { ui: SwaggerUiModel }).ui.specSelectors.taggedOperations().get('repository').get('operations').size),
      ).toBe(inDocument);
      expect(await page.locator('.opblock[id^="operations-repository-"]').count()).toBeGreaterThan(5);
      // Try it out: GET /repos/{owner}/{repo} against this server.
      const op = page.locator('#operations-repository-repoGet');
      await op.locator('.opblock-summary').click();
      await op.locator('button.try-out__btn').click();
      await op.locator('tr[data-param-name="owner"] input').fill(alice.username);
      await op.locator('tr[data-param-name="repo"] input').fill(repo.name);
      await op.locator('button.execute').click();
      const status = op.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ timeout: 30_000 });
      expect((await status.innerText()).trim()).toBe('200');
      expect(
        await op.locator('.live-responses-table .response .response-col_description').first().innerText(),
      ).toContain(`"full_name": "${repo.full_name}"`);
      expect(failures).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
