import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import semver from 'semver';
import { ContractError, formatTime, invalid, normalizeListOptions, notFound } from '@gitforge/contracts';
import { decodePathSegment, readBody } from '@gitforge/platform';
import { RepoServiceConfig } from '../../repo.config.js';
import { requireWrite } from '../package-access.js';
import type { PackageEntity, PackageVersionEntity } from '../package.entities.js';
import { PackagesService } from '../packages.service.js';
import type { FileRow } from '../packages.repository.js';
import type { PackageRegistry, RegistryRequest } from './registry.js';

const TYPE = 'npm';
/** What hashicorp/go-version's NewVersion reads as a version (Gitea refuses such dist-tags): `1`, `v1.2`, `1.2.3-rc.1+build`. */
const GO_VERSION = /^v?[0-9]+(\.[0-9]+)*?(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?$/;
/** Gitea's npm package names (`modules/packages/npm/creator.go`): lower case, an optional `@scope/`. */
const NAME = /^(@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/;
/** The manifest fields kept with a version and served back in the package document. */
const MANIFEST_FIELDS = [
  'description',
  'author',
  'homepage',
  'license',
  'keywords',
  'repository',
  'main',
  'types',
  'type',
  'exports',
  'bin',
  'engines',
  'os',
  'cpu',
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
  'bundleDependencies',
  'peerDependenciesMeta',
  'deprecated',
] as const;
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A manifest's person (`author`): npm writes a string (`Name <email> (url)`, kept whole, as Gitea keeps it) or an object with a name. */
function personName(person: unknown): string {
  if (typeof person === 'string') return person;
  return isObject(person) && typeof person.name === 'string' ? person.name : '';
}

/** Gitea keeps a manifest's homepage only when it is an http(s) URL. */
function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A publish document checked as Gitea's ParsePackage checks it. */
export interface NpmUpload {
  name: string;
  version: string;
  manifest: Json;
  tags: string[];
  tarball: Buffer;
  filename: string;
}

/** `@scope/name` → `name`: the tarball's file name is `{name}-{version}.tgz`, lower case. */
export function npmFilename(name: string, version: string): string {
  return `${name.slice(name.lastIndexOf('/') + 1)}-${version}.tgz`.toLowerCase();
}

/**
 * Parses and checks an `npm publish` document: exactly one version and one attachment, a valid
 * name and semver version, and a tarball whose integrity (sha512, or the sha1 `shasum` when no
 * integrity is given) matches the manifest. Every refusal is 400 with Gitea's message.
 */
export function parseNpmUpload(body: Buffer, urlName: string): NpmUpload {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalid('package is invalid');
  }
  if (!isObject(doc) || !isObject(doc.versions) || !isObject(doc._attachments)) throw invalid('package is invalid');
  const versions = Object.entries(doc.versions);
  if (versions.length !== 1) throw invalid('package is invalid');
  const [, manifest] = versions[0]!;
  if (!isObject(manifest)) throw invalid('package is invalid');
  const name = typeof manifest.name === 'string' ? manifest.name : '';
  if (!NAME.test(name) || name !== urlName) throw invalid('package name is invalid');
  const version = typeof manifest.version === 'string' ? manifest.version : '';
  if (semver.valid(version) !== version) throw invalid('package version is invalid');
  const attachments = Object.values(doc._attachments);
  if (attachments.length !== 1 || !isObject(attachments[0]) || typeof attachments[0].data !== 'string') throw invalid('package attachment is invalid');
  const data = attachments[0].data;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw invalid('package attachment is invalid');
  const tarball = Buffer.from(data, 'base64');
  const dist = isObject(manifest.dist) ? manifest.dist : {};
  if (!integrityMatches(tarball, dist)) throw invalid('failed to validate integrity');
  const tags = isObject(doc['dist-tags']) ? Object.entries(doc['dist-tags']).filter(([, v]) => v === version).map(([k]) => k) : [];
  const kept: Json = {};
  for (const field of MANIFEST_FIELDS) if (manifest[field] !== undefined) kept[field] = manifest[field];
  if (typeof manifest.readme === 'string') kept.readme = manifest.readme;
  else if (typeof doc.readme === 'string') kept.readme = doc.readme;
  return { name, version, manifest: kept, tags, tarball, filename: npmFilename(name, version) };
}

/** The tarball against `dist.integrity` (an SRI `algo-base64`, sha512 or sha1), else against `dist.shasum`. */
export function integrityMatches(tarball: Buffer, dist: Json): boolean {
  if (typeof dist.integrity === 'string' && dist.integrity !== '') {
    const dash = dist.integrity.indexOf('-');
    const algo = dist.integrity.slice(0, dash);
    if (dash <= 0 || (algo !== 'sha512' && algo !== 'sha1')) return false;
    return createHash(algo).update(tarball).digest('base64') === dist.integrity.slice(dash + 1);
  }
  if (typeof dist.shasum === 'string') return createHash('sha1').update(tarball).digest('hex') === dist.shasum.toLowerCase();
  return false;
}

/** `@scope%2Fname/rest…` or `@scope/name/rest…` or `name/rest…` → the package name and the remaining decoded segments. */
export function splitNpmPath(rawPath: string): { name: string; rest: string[] } | null {
  const segments = rawPath.replace(/%2f/gi, '/').split('/');
  const decoded = segments.map(decodePathSegment);
  if (decoded.some((s) => s === null)) return null;
  const parts = decoded as string[];
  if (parts[0]?.startsWith('@')) {
    if (parts.length < 2) return null;
    return { name: `${parts[0]}/${parts[1]}`, rest: parts.slice(2) };
  }
  return parts[0] ? { name: parts[0], rest: parts.slice(1) } : null;
}

/**
 * Gitea's npm registry (`routers/api/packages/npm`): publish (scoped or not, with dist-tags),
 * the package document, tarballs, dist-tags, unpublish and search. npm sends its `.npmrc` token
 * as `Authorization: Bearer`, which the gateway authenticates like any token. Errors are
 * `{"error": "…"}`.
 */
@Injectable()
export class NpmRegistry implements PackageRegistry {
  readonly type = TYPE;

  constructor(
    private readonly packages: PackagesService,
    private readonly config: RepoServiceConfig,
  ) {}

  errorBody(message: string): { contentType: string; body: string } {
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ error: message }) };
  }

  async handle(r: RegistryRequest): Promise<void> {
    if (r.rawPath === '-/v1/search') {
      if (r.method !== 'GET') throw notFound();
      return this.search(r);
    }
    if (r.rawPath.startsWith('-/package/')) return this.distTags(r, r.rawPath.slice('-/package/'.length));
    const path = splitNpmPath(r.rawPath);
    if (!path) throw notFound();
    const { name, rest } = path;
    if (!NAME.test(name)) throw invalid('package name is invalid');
    const m = r.method;
    if (rest.length === 0) {
      if (m === 'GET' || m === 'HEAD') return this.document(r, name);
      if (m === 'PUT') return this.publish(r, name);
      throw notFound();
    }
    // `{name}/-rev/{rev}`: PUT is npm's "unpublish preview" (nothing to do), DELETE the whole package.
    if (rest[0] === '-rev' && rest.length === 2) {
      if (m === 'PUT') {
        requireWrite(r.actor, r.owner);
        await this.packages.package(r.owner, TYPE, name);
        return this.json(r, 200, {});
      }
      if (m === 'DELETE') return this.unpublishAll(r, name);
      throw notFound();
    }
    if (rest[0] !== '-') throw notFound();
    // `{name}/-/{version}/{file}` (Gitea's tarball URL), `…/-rev/{rev}` to unpublish that version; `{name}/-/{file}` by file name.
    if (rest.length === 3 && (m === 'GET' || m === 'HEAD')) return this.tarball(r, name, rest[1]!, rest[2]!);
    if (rest.length === 5 && rest[3] === '-rev' && m === 'DELETE') return this.unpublishVersion(r, name, rest[1]!, rest[2]!);
    if (rest.length === 2 && (m === 'GET' || m === 'HEAD')) return this.tarballByName(r, name, rest[1]!);
    if (rest.length === 4 && rest[2] === '-rev' && m === 'DELETE') return this.unpublishByFilename(r, name, rest[1]!);
    throw notFound();
  }

  private registryUrl(r: RegistryRequest): string {
    return `${this.config.rootUrl}api/packages/${encodeURIComponent(r.ownerLogin)}/npm`;
  }

  private json(r: RegistryRequest, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    r.res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
    r.res.end(r.method === 'HEAD' ? undefined : text);
  }

  private async publish(r: RegistryRequest, name: string): Promise<void> {
    // Writers only, before the body is read; the tarball travels base64 in the JSON document.
    const actor = requireWrite(r.actor, r.owner);
    await this.packages.checkQuota(actor, r.owner);
    const max = this.config.packageMaxFileBytes;
    const body = await readBody(r.req, { limit: Math.ceil((max * 4) / 3) + 4 * 1024 * 1024, tooLarge: () => new ContractError('payload_too_large', `package exceeds the limit of ${max} bytes`) });
    const upload = parseNpmUpload(body, name);
    // A package naming one of this forge's repositories is linked to it (Gitea's UploadPackage).
    const url = (upload.manifest.repository as { url?: unknown } | undefined)?.url;
    const repo = typeof url === 'string' ? await this.packages.publishTarget(actor, url) : null;
    const { pkg } = await this.packages.publish(
      actor,
      r.owner,
      { type: TYPE, name, version: upload.version, metadata: upload.manifest, filename: upload.filename, addToExisting: false, tags: upload.tags },
      Readable.from([upload.tarball]),
    );
    if (repo) await this.packages.setRepositoryLink(pkg, repo.id);
    this.json(r, 201, {});
  }

  /** The package document npm reads for `view` and `install` (Gitea's createPackageMetadataResponse). */
  private async document(r: RegistryRequest, name: string): Promise<void> {
    const pkg = await this.packages.package(r.owner, TYPE, name);
    const versions = await this.packages.versions(pkg);
    if (versions.length === 0) throw notFound('package does not exist');
    const files = await this.packages.files(versions);
    const tags = await this.packages.tags(pkg);
    const byId = new Map(versions.map((v) => [v.id, v]));
    const latest = [...versions].sort((a, b) => semver.rcompare(a.version, b.version))[0]!;
    const latestMeta = JSON.parse(latest.metadata) as Json;
    const distTags: Record<string, string> = {};
    for (const t of tags) {
      const v = byId.get(t.versionId);
      if (v) distTags[t.tag] = v.version;
    }
    // Unpublishing the version `latest` pointed at takes the tag with it: npm then installs the highest version left.
    distTags.latest ??= latest.version;
    const time: Record<string, string> = {
      created: new Date(Math.min(...versions.map((v) => v.createdAt.getTime()))).toISOString(),
      modified: new Date(Math.max(...versions.map((v) => v.createdAt.getTime()))).toISOString(),
    };
    const out: Record<string, Json> = {};
    for (const v of versions) {
      const file = files.find((f) => f.file.versionId === v.id);
      if (!file) continue;
      out[v.version] = this.versionDocument(r, pkg, v, file);
      time[v.version] = v.createdAt.toISOString();
    }
    this.json(r, 200, {
      _id: pkg.name,
      name: pkg.name,
      description: latestMeta.description ?? '',
      'dist-tags': distTags,
      versions: out,
      time,
      readme: latestMeta.readme ?? '',
      homepage: latestMeta.homepage,
      license: latestMeta.license,
      repository: latestMeta.repository,
      author: latestMeta.author,
      keywords: latestMeta.keywords,
    });
  }

  private versionDocument(r: RegistryRequest, pkg: PackageEntity, v: PackageVersionEntity, file: FileRow): Json {
    const meta = JSON.parse(v.metadata) as Json;
    delete meta.readme;
    return {
      ...meta,
      _id: `${pkg.name}@${v.version}`,
      name: pkg.name,
      version: v.version,
      dist: {
        shasum: file.blob.sha1,
        integrity: `sha512-${Buffer.from(file.blob.sha512, 'hex').toString('base64')}`,
        tarball: `${this.registryUrl(r)}/${encodeURIComponent(pkg.name)}/-/${encodeURIComponent(v.version)}/${encodeURIComponent(file.file.name)}`,
      },
    };
  }

  private async tarball(r: RegistryRequest, name: string, version: string, filename: string): Promise<void> {
    await this.packages.serve(r.req, r.res, await this.packages.version(r.owner, TYPE, name, version), filename);
  }

  /** `{name}/-/{file}`: the version whose tarball has that name. */
  private async versionByFilename(r: RegistryRequest, name: string, filename: string): Promise<PackageVersionEntity> {
    const pkg = await this.packages.package(r.owner, TYPE, name);
    const versions = await this.packages.versions(pkg);
    const files = await this.packages.files(versions);
    const file = files.find((f) => f.file.lowerName === filename.toLowerCase());
    const version = file && versions.find((v) => v.id === file.file.versionId);
    if (!version) throw notFound('package file does not exist');
    return version;
  }

  private async tarballByName(r: RegistryRequest, name: string, filename: string): Promise<void> {
    const version = await this.versionByFilename(r, name, filename);
    return this.tarball(r, name, version.version, filename);
  }

  private async unpublishVersion(r: RegistryRequest, name: string, version: string, filename: string): Promise<void> {
    const row = await this.packages.version(r.owner, TYPE, name, version);
    if (npmFilename(name, version) !== filename.toLowerCase()) throw notFound('package file does not exist');
    await this.packages.deleteVersion(r.actor, r.owner, row);
    this.json(r, 200, {});
  }

  private async unpublishByFilename(r: RegistryRequest, name: string, filename: string): Promise<void> {
    const version = await this.versionByFilename(r, name, filename);
    return this.unpublishVersion(r, name, version.version, filename);
  }

  private async unpublishAll(r: RegistryRequest, name: string): Promise<void> {
    await this.packages.deletePackage(r.actor, r.owner, await this.packages.package(r.owner, TYPE, name));
    this.json(r, 200, {});
  }

  /** `-/package/{name}/dist-tags[/{tag}]`: list (GET), point a tag at a version (PUT, body `"1.2.3"`), remove one (DELETE). */
  private async distTags(r: RegistryRequest, rawRest: string): Promise<void> {
    const path = splitNpmPath(rawRest);
    if (!path || path.rest[0] !== 'dist-tags' || path.rest.length > 2) throw notFound();
    if (!NAME.test(path.name)) throw invalid('package name is invalid');
    // A package that is not there has no tags to list or remove (Gitea answers those 200); setting one needs its version (404).
    const pkg = await this.packages.findPackage(r.owner, TYPE, path.name);
    const tag = path.rest[1];
    if (tag === undefined) {
      if (r.method !== 'GET' && r.method !== 'HEAD') throw notFound();
      const out: Record<string, string> = {};
      if (!pkg) return this.json(r, 200, out);
      const versions = new Map((await this.packages.versions(pkg)).map((v) => [v.id, v.version]));
      for (const t of await this.packages.tags(pkg)) if (versions.has(t.versionId)) out[t.tag] = versions.get(t.versionId)!;
      return this.json(r, 200, out);
    }
    // Gitea refuses a tag that reads as a version (hashicorp/go-version), so a range such as `1.x` is a tag.
    if (tag === '' || GO_VERSION.test(tag)) throw invalid('invalid tag');
    if (r.method === 'PUT') {
      const body = await readBody(r.req, { limit: 4096, tooLarge: () => new ContractError('payload_too_large', 'request body too large') });
      let version: unknown;
      try {
        version = JSON.parse(body.toString('utf8'));
      } catch {
        version = body.toString('utf8').trim().replace(/^"|"$/g, '');
      }
      if (typeof version !== 'string' || version === '') throw invalid('invalid version');
      await this.packages.setTag(r.actor, r.owner, await this.packages.version(r.owner, TYPE, path.name, version), tag);
      return this.json(r, 200, {});
    }
    if (r.method === 'DELETE') {
      requireWrite(r.actor, r.owner);
      if (pkg) await this.packages.deleteTag(r.actor, r.owner, pkg, tag);
      return this.json(r, 200, {});
    }
    throw notFound();
  }

  /**
   * `-/v1/search?text=&from=&size=` (`npm search`, Gitea's PackageSearch): the newest version of each matching package, newest
   * first, paged by `from` and `size` as Gitea pages its API lists.
   */
  private async search(r: RegistryRequest): Promise<void> {
    // Gitea's NewAbsoluteListOptions: `size` is a limit as the API's lists take it, `from` an offset.
    const { limit } = normalizeListOptions({ limit: r.query.get('size') });
    const from = Math.max(Number.parseInt(r.query.get('from') ?? '', 10) || 0, 0);
    const { rows, total } = await this.packages.searchLatest(r.owner, TYPE, (r.query.get('text') ?? '').trim(), { offset: from, limit });
    const objects = rows.map(({ pkg, version }) => {
      const meta = JSON.parse(version.metadata) as Json;
      const slash = pkg.name.indexOf('/');
      const homepage = typeof meta.homepage === 'string' && isHttpUrl(meta.homepage) ? meta.homepage : '';
      return {
        package: {
          // Gitea's metadata splits `@scope/name`: the scope keeps its `@`, the name is what follows.
          scope: slash > 0 ? pkg.name.slice(0, slash) : 'unscoped',
          name: slash > 0 ? pkg.name.slice(slash + 1) : pkg.name,
          version: version.version,
          date: formatTime(version.createdAt),
          description: typeof meta.description === 'string' ? meta.description : '',
          author: { name: personName(meta.author) },
          publisher: { name: r.ownerLogin },
          // npm's search output reads every entry's maintainers; Gitea sends none.
          maintainers: [],
          ...(Array.isArray(meta.keywords) && meta.keywords.length > 0 ? { keywords: meta.keywords } : {}),
          links: { npm: this.registryUrl(r), ...(homepage ? { homepage } : {}) },
        },
      };
    });
    this.json(r, 200, { objects, total });
  }
}
