export * from './blob-store.js';
export * from './fs-blob-store.js';
export * from './upload.js';
export * from './digests.js';
