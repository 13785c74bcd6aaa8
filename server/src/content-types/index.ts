import syncStateSchema from './sync-state/schema.json';
import outboxEntrySchema from './outbox-entry/schema.json';
import syncRefSchema from './sync-ref/schema.json';
import pushAttemptSchema from './push-attempt/schema.json';

export default {
  'sync-state': { schema: syncStateSchema },
  'outbox-entry': { schema: outboxEntrySchema },
  'sync-ref': { schema: syncRefSchema },
  'push-attempt': { schema: pushAttemptSchema },
};
