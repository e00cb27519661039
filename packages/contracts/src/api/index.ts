export * from './user.js';
export * from './org.js';
export * from './repo.js';
export * from './auth.js';
export * from './payload.js';
export * from './directory.js';
export * from './collaborator.js';
export * from './protection.js';
