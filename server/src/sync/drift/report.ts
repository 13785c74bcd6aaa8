import type { DriftGroup } from '../../../../shared/contracts/drift';

export const DRIFT_GROUPS: DriftGroup[] = ['missing', 'changed', 'notOurs', 'membership'];
