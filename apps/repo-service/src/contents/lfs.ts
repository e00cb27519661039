import { buffer } from 'node:stream/consumers';
import { Injectable } from '@nestjs/common';
import { BlobStore } from '@gitforge/platform';
import { lfsBlobKey } from '../lfs/lfs.entities.js';
import { LfsRepository } from '../lfs/lfs.repository.js';

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
 * LFS objects for the contents API's `media/` route: the object behind a pointer, when it was
 * uploaded and this repository references it (the LFS server's lfs_meta_object), from the BlobStore.
 */
@Injectable()
export class LfsStore {
  constructor(
    private readonly blobs: BlobStore,
    private readonly lfs: LfsRepository,
  ) {}

  /** The object's bytes, or null when this repository has no such object (or it is incomplete). */
  async read(repoId: number, pointer: LfsPointer): Promise<Buffer | null> {
    const meta = await this.lfs.findMeta(repoId, pointer.oid);
    if (!meta || meta.size !== pointer.size) return null;
    const stream = await this.blobs.open(lfsBlobKey(pointer.oid));
    if (!stream) return null;
    const data = await buffer(stream);
    return data.length === pointer.size ? data : null;
  }
}
