import 'reflect-metadata';

export * from './actor.js';
export * from './errors.js';
export * from './pagination.js';
export * from './patterns.js';
export * from './issue-patterns.js';
export * from './pull-patterns.js';
export * from './events.js';
export * from './queues.js';
export * from './access.js';
export * from './scopes.js';
export * from './time.js';
export * from './names.js';
export * from './git-http.js';
export * from './attachment-http.js';
export * from './api/index.js';
export * from './dto/index.js';
export * from './glob.js';
