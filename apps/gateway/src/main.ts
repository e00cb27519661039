import { exitOnSignals } from '@gitforge/platform';
import { startGateway } from './bootstrap.js';

try {
  const app = await startGateway();
  exitOnSignals(() => app.close());
} catch (err) {
  console.error('gateway failed to start:', err);
  process.exit(1);
}
