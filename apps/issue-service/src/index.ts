export { IssueServiceModule } from './issue-service.module.js';
