import syncStateSchema from './sync-state/schema.json';
import outboxEntrySchema from './outbox-entry/schema.json';
import syncRefSchema from './sync-ref/schema.json';
import inventoryObjectSchema from './inventory-object/schema.json';
import inventoryMemberSchema from './inventory-member/schema.json';
import leaseSchema from './lease/schema.json';
import pushAttemptSchema from './push-attempt/schema.json';
import importItemSchema from './import-item/schema.json';

export default {
  'sync-state': { schema: syncStateSchema },
  'outbox-entry': { schema: outboxEntrySchema },
  'sync-ref': { schema: syncRefSchema },
  'inventory-object': { schema: inventoryObjectSchema },
  'inventory-member': { schema: inventoryMemberSchema },
  lease: { schema: leaseSchema },
  'push-attempt': { schema: pushAttemptSchema },
  'import-item': { schema: importItemSchema },
};
