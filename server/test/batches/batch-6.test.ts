import { runBatchNamedBy } from './run-batch';

runBatchNamedBy(__filename);
