const path = require('path');

module.exports = ({ env }) => ({
  'location-content': {
    enabled: true,
    // The plugin is loaded from this repository's working tree (tests copy the app elsewhere and set the path).
    resolve: env('LOCATION_CONTENT_PLUGIN_PATH', path.resolve(__dirname, '..', '..')),
    config: {
      baseUrl: env('LOCATION_CONTENT_BASE_URL'),
      clientId: env('LOCATION_CONTENT_CLIENT_ID'),
      clientSecret: env('LOCATION_CONTENT_CLIENT_SECRET'),
      rateLimit: {
        requestsPerSecond: env.float('LOCATION_CONTENT_RPS', 10),
        concurrency: env.int('LOCATION_CONTENT_CONCURRENCY', 4),
      },
      syncEnabled: env.bool('LOCATION_CONTENT_SYNC', true),
      mappings: [
        {
          contentType: 'api::place.place',
          resource: 'pinpoint',
          fields: {
            name: 'title',
            description: 'body',
            address: 'address',
            latitude: 'geo.lat',
            longitude: 'geo.lng',
            tags: 'keywords',
            media: 'cover',
            media_credits: 'credits',
            category: 'icon',
          },
        },
        {
          contentType: 'api::happening.happening',
          resource: 'event',
          fields: {
            name: 'title',
            description: 'description',
            dates: { path: 'slots', start: 'from', end: 'to' },
            pinpoint: 'place',
          },
        },
        {
          contentType: 'api::icon.icon',
          resource: 'category',
          fields: { name: 'label', image: 'glyph' },
        },
        {
          contentType: 'api::tour.tour',
          resource: 'list',
          fields: { name: 'name', description: 'description', pinpoints: 'stops' },
        },
      ],
    },
  },
});
