export { OrgServiceModule } from './org-service.module.js';
