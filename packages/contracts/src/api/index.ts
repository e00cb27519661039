export * from './user.js';
export * from './org.js';
export * from './repo.js';
export * from './auth.js';
export * from './payload.js';
export * from './contents.js';
export * from './commit.js';
