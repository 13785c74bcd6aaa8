import { defaults } from './defaults';
import { configShapeProblems } from './validate';
import type { PluginConfig } from './types';

export default {
  default: defaults,
  validator(config: PluginConfig) {
    const problems = configShapeProblems(config);
    if (problems.length) {
      throw new Error(
        `Invalid configuration of the location-content plugin:\n- ${problems.join('\n- ')}`
      );
    }
  },
};

export type { PluginConfig } from './types';
