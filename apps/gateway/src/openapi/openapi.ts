import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ValidationTypes } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { FastifyInstance } from 'fastify';
import { GITEA_COMPATIBLE_VERSION } from '../version.js';
import { GITEA_OPERATIONS } from './gitea-operations.js';

type PathItemObject = OpenAPIObject['paths'][string];
type OperationObject = NonNullable<PathItemObject['get']>;
type SchemaObject = Exclude<
  NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string],
  { $ref: string }
>;
type ReferenceObject = { $ref: string };

/** The API's base path, as Gitea's `basePath`. */
const API_PREFIX = '/api/v1';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/** `/repos/{owner}/{repo}/contents/{filepath}` → `/repos/{}/{}/contents/{}`: paths compared by shape, whatever the parameters are called. */
export function pathShape(path: string): string {
  return path.replace(/\{[^}]+\}/g, '{}');
}

function isReference(value: unknown): value is ReferenceObject {
  return typeof value === 'object' && value !== null && '$ref' in value;
}

/** Schema names `value` refers to, at any depth. */
function referencedSchemas(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) referencedSchemas(v, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') into.add(v.replace('#/components/schemas/', ''));
      else referencedSchemas(v, into);
    }
  }
  return into;
}

/** Replaces every `$ref` to a renamed schema. */
function renameReferences(value: unknown, renames: Map<string, string>): void {
  if (Array.isArray(value)) for (const v of value) renameReferences(v, renames);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const [key, v] of Object.entries(record)) {
      if (key === '$ref' && typeof v === 'string') {
        const to = renames.get(v.replace('#/components/schemas/', ''));
        if (to) record[key] = `#/components/schemas/${to}`;
      } else renameReferences(v, renames);
    }
  }
}

/**
 * A property checked only by one of our own validators (`@IsStringMap`, `@NonEmptyArray`, a date)
 * is described by its declared type; a type that is no DTO class (`Object` for a map or a union,
 * `Array`) has no schema of its own to refer to.
 */
function customValidationSchema(meta: { target: unknown; propertyName: string }) {
  const type: unknown =
    typeof meta.target === 'function'
      ? Reflect.getMetadata('design:type', meta.target.prototype as object, meta.propertyName)
      : undefined;
  if (type === String) return { type: 'string' } as const;
  if (type === Number) return { type: 'number' } as const;
  if (type === Boolean) return { type: 'boolean' } as const;
  if (type === Array) return { type: 'array', items: {} } as const;
  return {};
}

type SchemaOptions = NonNullable<Parameters<typeof validationMetadatasToSchemas>[0]>;

/** class-transformer's registry of `@Type` decorators (the instance the contracts DTOs registered in). */
const { defaultMetadataStorage } = createRequire(import.meta.url)('class-transformer/cjs/storage.js') as {
  defaultMetadataStorage: SchemaOptions['classTransformerMetadataStorage'];
};

/** Body DTO classes come from `contracts`: their class-validator rules are their schema. */
function dtoSchemas(): Record<string, SchemaObject> {
  return validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    // `@Type(() => ChangeFileOperation)` names a nested DTO's class (the declared type is only `Array`).
    classTransformerMetadataStorage: defaultMetadataStorage,
    additionalConverters: {
      [ValidationTypes.CUSTOM_VALIDATION]: customValidationSchema,
      // JSON Schema's `not: {type: 'null'}` is no OpenAPI 3.0; `required` already says it.
      [ValidationTypes.IS_DEFINED]: {},
    },
  }) as Record<string, SchemaObject>;
}

/**
 * The OpenAPI document of the routes the gateway serves: every `api/v1` controller of the
 * application, found by scanning it (so a controller added later appears without being listed
 * here), with request bodies described by the `contracts` DTOs. Where a route mirrors a Gitea
 * operation (same method and path shape) it carries Gitea's operationId, tag and body definition
 * name, so code generated from either document calls the same functions; other routes keep
 * names derived from their controller.
 */
export function buildOpenApiDocument(app: INestApplication, rootUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('gitforge API')
    .setDescription(
      'A Gitea-compatible API (v1). Authenticate with `Authorization: token <token>`, a `?token=` query parameter, or HTTP Basic.',
    )
    .setVersion(GITEA_COMPATIBLE_VERSION)
    .addServer(`${rootUrl.replace(/\/+$/, '')}${API_PREFIX}`)
    .addBasicAuth({ type: 'http', scheme: 'basic' }, 'BasicAuth')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'Authorization', description: 'must be `token <token>`' },
      'AuthorizationHeaderToken',
    )
    .addApiKey({ type: 'apiKey', in: 'query', name: 'token' }, 'Token')
    .addSecurityRequirements('BasicAuth')
    .addSecurityRequirements('AuthorizationHeaderToken')
    .addSecurityRequirements('Token')
    .build();
  const scanned = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });

  const paths: Record<string, PathItemObject> = {};
  const renames = new Map<string, string>();
  const usedIds = new Set<string>();
  for (const [rawPath, item] of Object.entries(scanned.paths)) {
    if (!rawPath.startsWith(`${API_PREFIX}/`)) continue;
    // A trailing wildcard (`contents/*`) is one path parameter to a client, as Gitea's `{filepath}`.
    const path = rawPath
      .slice(API_PREFIX.length)
      .replace(/\/\*(\w*)$/, (_m, name: string) => `/{${name || 'path'}}`);
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const gitea = GITEA_OPERATIONS[`${method.toUpperCase()} ${pathShape(path)}`];
      if (gitea) {
        op.tags = [gitea.tag];
        op.operationId = gitea.operationId;
        const body =
          op.requestBody && !isReference(op.requestBody)
            ? op.requestBody.content?.['application/json']?.schema
            : undefined;
        const ours = isReference(body) ? body.$ref.replace('#/components/schemas/', '') : undefined;
        if (ours && gitea.body && ours !== gitea.body) renames.set(ours, gitea.body);
      } else {
        op.tags = ['gitforge'];
      }
      // Two routes of ours on one Gitea operation (an alias path) keep distinct ids.
      let id = op.operationId ?? `${method}${path}`;
      for (let n = 2; usedIds.has(id); n++) id = `${op.operationId}${n}`;
      op.operationId = id;
      usedIds.add(id);
      // Path parameters are always strings here; a wildcard's name follows the path.
      for (const parameter of op.parameters ?? []) {
        if (isReference(parameter) || parameter.in !== 'path' || path.includes(`{${parameter.name}}`))
          continue;
        parameter.name = /\{(\w+)\}$/.exec(path)?.[1] ?? parameter.name;
      }
      // A route that reads its parameters from the request (not through @Param) declares none to the
      // scan; OpenAPI requires each, and Swagger UI's "Try it out" has no field for one left out.
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        const declared = (op.parameters ?? []).some(
          (p) => !isReference(p) && p.in === 'path' && p.name === name,
        );
        if (!declared)
          (op.parameters ??= []).push({
            name: name!,
            in: 'path',
            required: true,
            schema: { type: 'string' },
          });
      }
      (paths[path] ??= {})[method] = op;
    }
  }

  // Components: the DTO schemas the operations reach (transitively), under Gitea's names where they differ.
  // Swagger's scan sees a DTO class without @ApiProperty as an empty object: class-validator's rules describe it.
  const all: Record<string, SchemaObject> = {
    ...(scanned.components?.schemas as Record<string, SchemaObject> | undefined),
    ...dtoSchemas(),
  };
  const schemas: Record<string, SchemaObject> = {};
  const pending = [...referencedSchemas(paths)];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (schemas[name] || !all[name]) continue;
    schemas[name] = all[name];
    for (const next of referencedSchemas(all[name])) pending.push(next);
  }
  for (const [from, to] of renames) {
    if (schemas[to] || !schemas[from]) continue;
    schemas[to] = schemas[from];
    delete schemas[from];
  }
  renameReferences(paths, renames);
  renameReferences(schemas, renames);
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ...scanned, paths: sorted, components: { ...scanned.components, schemas } };
}

/** swagger-ui-dist's files the page loads. */
const UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

function swaggerPage(base: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>gitforge API</title>
  <link rel="stylesheet" href="${base}api/swagger/ui/swagger-ui.css">
  <link rel="icon" type="image/png" href="${base}api/swagger/ui/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}api/swagger/ui/swagger-ui-bundle.js"></script>
  <script src="${base}api/swagger/ui/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: ${JSON.stringify(`${base}swagger.v1.json`)},
      dom_id: '#swagger-ui',
      deepLinking: true,
      // Tags start folded: over three hundred operations open at once make the page slow to show.
      docExpansion: 'none',
      filter: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      plugins: [SwaggerUIBundle.plugins.DownloadUrl],
      layout: 'StandaloneLayout',
    });
  </script>
</body>
</html>
`;
}

/**
 * Serves the API description as Gitea does: the document at `/swagger.v1.json` and
 * `/api/v1/swagger`, the Swagger UI page at `/api/swagger` (swagger-ui-dist's files under
 * `/api/swagger/ui/`). The document is built at the first request and kept.
 */
export function registerOpenApiRoutes(
  fastify: FastifyInstance,
  app: INestApplication,
  rootUrl: string,
): void {
  let document: string | undefined;
  const json = (): string => (document ??= JSON.stringify(buildOpenApiDocument(app, rootUrl)));
  for (const url of ['/swagger.v1.json', `${API_PREFIX}/swagger`]) {
    fastify.get(url, async (_req, reply) => reply.type('application/json; charset=utf-8').send(json()));
  }
  const base = new URL(rootUrl).pathname.replace(/\/*$/, '/');
  fastify.get('/api/swagger', async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(swaggerPage(base)),
  );
  const uiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  fastify.get<{ Params: { file: string } }>('/api/swagger/ui/:file', async (req, reply) => {
    const type = UI_FILES[req.params.file];
    if (!type) return reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n');
    return reply
      .type(type)
      .header('Cache-Control', 'public, max-age=86400')
      .send(await readFile(join(uiDir, req.params.file)));
  });
}
