// Tests expect errors on purpose; their logs go to the level GITFORGE_TEST_LOG_LEVEL asks (default: none).
import { setLogLevel } from '@gitforge/platform';

setLogLevel(process.env.GITFORGE_TEST_LOG_LEVEL ?? 'silent');
