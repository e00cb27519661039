import { Injectable } from '@nestjs/common';
import { invalid, notFound } from '@gitforge/contracts';
import { decodePathSegment } from '@gitforge/platform';
import { PackagesService } from '../packages.service.js';
import type { PackageRegistry, RegistryRequest } from './registry.js';

const TYPE = 'generic';
/** Gitea's generic package names and versions: word characters and `-_+.`. */
const NAME = /^[-_+.A-Za-z0-9]+$/;
/** Gitea's generic file names: a wider set, still one path segment (no `/` or `\`). */
const FILENAME = /^[-_+=:;.()[\]{}~!@#$%^& A-Za-z0-9]+$/;

/** Gitea's isValidPackageName: a one-character name is a letter or digit, and `.`/`..` are no names. */
export function isValidGenericName(name: string): boolean {
  if (name.length === 1 && !/^[A-Za-z0-9]$/.test(name)) return false;
  return NAME.test(name) && name !== '..' && name.length <= 255;
}

/** A version is taken as given, but must be one trimmed path segment that could not walk a path. */
export function isValidGenericVersion(version: string): boolean {
  return version !== '' && version.trim() === version && version !== '.' && version !== '..' && version.length <= 255 && NAME.test(version);
}

/** Gitea's isValidFileName. */
export function isValidGenericFilename(filename: string): boolean {
  return FILENAME.test(filename) && filename.trim() === filename && filename !== '.' && filename !== '..' && filename.length <= 255;
}

/**
 * Gitea's generic registry (`routers/api/packages/generic`): `PUT/GET/DELETE
 * {name}/{version}/{file}` and `DELETE {name}/{version}`. Any bytes, any number of files per
 * version; a file name used twice in a version is 409. Errors are plain text.
 */
@Injectable()
export class GenericRegistry implements PackageRegistry {
  readonly type = TYPE;

  constructor(private readonly packages: PackagesService) {}

  errorBody(message: string): { contentType: string; body: string } {
    return { contentType: 'text/plain; charset=utf-8', body: message };
  }

  async handle(r: RegistryRequest): Promise<void> {
    const parts = r.rawPath.split('/').map(decodePathSegment);
    if (parts.some((p) => p === null) || parts.length < 2 || parts.length > 3) throw notFound();
    const [name, version, filename] = parts as string[];
    if (!isValidGenericName(name!)) throw invalid('invalid package name');
    if (!isValidGenericVersion(version!)) throw invalid('invalid package version');
    if (filename !== undefined && !isValidGenericFilename(filename)) throw invalid('invalid filename');

    if (filename === undefined) {
      if (r.method !== 'DELETE') throw notFound();
      await this.packages.deleteVersion(r.actor, r.owner, await this.packages.version(r.owner, TYPE, name!, version!));
      r.res.writeHead(204).end();
      return;
    }
    switch (r.method) {
      case 'PUT': {
        await this.packages.publish(r.actor, r.owner, { type: TYPE, name: name!, version: version!, filename, addToExisting: true }, r.req);
        r.res.writeHead(201).end();
        return;
      }
      case 'GET':
      case 'HEAD': {
        await this.packages.serve(r.req, r.res, await this.packages.version(r.owner, TYPE, name!, version!), filename);
        return;
      }
      case 'DELETE': {
        await this.packages.deleteFile(r.actor, r.owner, await this.packages.version(r.owner, TYPE, name!, version!), filename);
        r.res.writeHead(204).end();
        return;
      }
      default:
        throw notFound();
    }
  }
}
