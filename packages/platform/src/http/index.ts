export * from './gitea-exception.filter.js';
export * from './pagination.js';
export * from './validation.js';
export * from './request-input.js';
export * from './content-headers.js';
