import sync from './sync';

export default { sync };
