export * from './common/validators.js';
export * from './admin/create-user-option.dto.js';
export * from './user/create-access-token-option.dto.js';
export * from './org/create-org-option.dto.js';
export * from './repo/create-repo-option.dto.js';
export * from './repo/edit-repo-option.dto.js';
export * from './hook/create-hook-option.dto.js';
export * from './hook/edit-hook-option.dto.js';
