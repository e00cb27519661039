export * from './user.js';
export * from './org.js';
export * from './repo.js';
export * from './auth.js';
export * from './payload.js';
export * from './hook.js';
export * from './facts.js';
