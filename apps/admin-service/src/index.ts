export { AdminServiceModule } from './admin-service.module.js';
