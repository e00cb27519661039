import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { PlatformConfig } from '@gitforge/platform';

/** Pointer files are at most this long (Gitea's lfs.MetaFileMaxSize). */
export const LFS_POINTER_MAX_SIZE = 1024;
const PREFIX = 'version https://git-lfs.github.com/spec/v1\n';

export interface LfsPointer {
  oid: string;
  size: number;
}

/** Gitea's lfs.ReadPointer: the pointer a blob holds, or null when it is not a valid one. */
export function parseLfsPointer(data: Buffer): LfsPointer | null {
  if (data.length === 0 || data.length > LFS_POINTER_MAX_SIZE) return null;
  const text = data.toString('utf8');
  if (!text.startsWith(PREFIX)) return null;
  let oid = '';
  let size = -1;
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'oid') {
      if (!value.startsWith('sha256:')) return null;
      oid = value.slice('sha256:'.length);
    } else if (key === 'size') {
      if (!/^\d+$/.test(value)) return null;
      size = Number(value);
    }
  }
  return /^[0-9a-f]{64}$/.test(oid) && size >= 0 ? { oid, size } : null;
}

/**
 * LFS objects on disk, in Gitea's content-store layout (`<data>/lfs/ab/cd/ef…`), for serving
 * `media/` requests of pointers whose object has been uploaded.
 */
@Injectable()
export class LfsStore {
  private readonly root: string;

  constructor(config: PlatformConfig) {
    this.root = resolve(config.GITFORGE_DATA_DIR, 'lfs');
  }

  path(oid: string): string {
    return join(this.root, oid.slice(0, 2), oid.slice(2, 4), oid.slice(4));
  }

  /** The object's bytes, or null when it was never uploaded (or is incomplete). */
  async read(pointer: LfsPointer): Promise<Buffer | null> {
    try {
      const info = await stat(this.path(pointer.oid));
      if (!info.isFile() || info.size !== pointer.size) return null;
      return await readFile(this.path(pointer.oid));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }
}
