export const PLUGIN_ID = 'location-content';
