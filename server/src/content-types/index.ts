import syncStateSchema from './sync-state/schema.json';
import outboxEntrySchema from './outbox-entry/schema.json';

export default {
  'sync-state': { schema: syncStateSchema },
  'outbox-entry': { schema: outboxEntrySchema },
};
