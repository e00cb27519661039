export { ActionsServiceModule } from './actions-service.module.js';
