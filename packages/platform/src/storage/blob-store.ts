import type { Readable } from 'node:stream';
import type { DigestAlgorithm } from './digests.js';

/** What {@link BlobStore.put} learned while writing. */
export interface StoredBlob {
  /** Bytes written. */
  size: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  /** The further digests the put was asked for (lower-case hex). */
  digests: Partial<Record<DigestAlgorithm, string>>;
}

/** How a put goes. */
export interface BlobPutOptions {
  /** Refuse past this many bytes. */
  maxBytes?: number;
  /** What the bytes must be. */
  expect?: BlobExpectation;
  /** Digests to compute besides the SHA-256 while the bytes stream (a package file's md5, sha1, sha512). */
  digests?: readonly DigestAlgorithm[];
}

/** A stored blob as {@link BlobStore.list} finds it. */
export interface ListedBlob {
  key: string;
  /** When its bytes were last written. */
  modifiedAt: Date;
}

/** Thrown by {@link BlobStore.put} when the source is longer than `maxBytes`; nothing is stored. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/**
 * Thrown by {@link BlobStore.put} when the bytes are not the `expect`ed ones (content-addressed
 * blobs such as LFS objects); nothing is stored and a blob already under the key stays as it was.
 */
export class BlobMismatchError extends Error {
  constructor(readonly what: 'size' | 'sha256') {
    super(what === 'size' ? 'the object is not the expected size' : 'the object does not have the expected sha256');
    this.name = 'BlobMismatchError';
  }
}

/** What a put must find before it commits the blob. */
export interface BlobExpectation {
  size?: number;
  sha256?: string;
}

/** Bytes `start` to `end` of a blob, both included (an HTTP byte range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where files that are not git objects live: issue and comment attachments now, release assets
 * and packages later. Keys are relative, `/`-separated paths whose first segment names the kind
 * (`attachments/…`), so one store serves every kind, and they map one to one onto the object
 * keys of an S3-compatible bucket; nothing here assumes a filesystem (no paths, no renames, no
 * partial updates). Callers keep the key in their own rows.
 *
 * A put is all or nothing: readers never see a partial blob, and a failed or refused put leaves
 * nothing behind. Writing the same key twice replaces the blob.
 */
export abstract class BlobStore {
  /**
   * Streams `source` into `key`; refuses (and stores nothing) past `maxBytes`, or when the bytes
   * are not the `expect`ed size and digest (checked before the blob becomes visible).
   */
  abstract put(key: string, source: Readable, options?: BlobPutOptions): Promise<StoredBlob>;

  /** The blob's bytes (those of `range` only, when given), or null when there is none. */
  abstract open(key: string, range?: ByteRange): Promise<Readable | null>;

  /** Removes the blob; a missing one is not an error. */
  abstract delete(key: string): Promise<void>;

  abstract exists(key: string): Promise<boolean>;

  /**
   * Every blob under `prefix` (whole key segments: `packages` lists `packages/…`), in no order:
   * for a kind's sweep of bytes that no row names, such as those of a process that crashed
   * between storing a blob and committing the row that names it.
   */
  abstract list(prefix: string): AsyncIterable<ListedBlob>;

  /**
   * Removes what puts that never finished left behind (a process killed mid-upload), once it
   * is older than `olderThanMs`; answers how many were removed. This is store-wide, whatever kind
   * the puts were for. A put under way writes all along, so it is never that old unless it has
   * stalled that long, and then it fails instead of storing its blob.
   */
  abstract clearAbandoned(olderThanMs: number): Promise<number>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Whether `name` may be one segment of a key (so a backend's own files, such as `.blob-tmp`, never are). */
export function isBlobKeySegment(name: string): boolean {
  return SEGMENT.test(name) && name !== '.' && name !== '..' && !name.endsWith('.');
}

/**
 * Refuses keys that could leave the store (`..`, absolute paths, backslashes) or that one of the
 * backends could not hold the same way; every caller builds keys from ids, never from user input.
 */
export function checkBlobKey(key: string): string[] {
  const segments = key.split('/');
  if (segments.length < 2 || !segments.every(isBlobKeySegment)) {
    throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
  }
  return segments;
}
