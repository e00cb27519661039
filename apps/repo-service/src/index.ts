export { RepoServiceModule } from './repo-service.module.js';
