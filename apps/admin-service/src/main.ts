import { runService } from '@gitforge/platform';
import { AdminServiceModule } from './admin-service.module.js';

await runService(AdminServiceModule, 'admin');
