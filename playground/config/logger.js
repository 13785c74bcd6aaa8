const { winston, formats } = require('@strapi/logger');

// Everything at STRAPI_LOG_LEVEL and above (errors and warnings too: the boot's warnings, failed
// pushes, alerts); the HTTP request lines and debug output are below the default `info`.
module.exports = ({ env }) => ({
  transports: [
    new winston.transports.Console({
      level: env('STRAPI_LOG_LEVEL', 'info'),
      format: formats.prettyPrint({ timestamps: 'YYYY-MM-DD hh:mm:ss.SSS' }),
    }),
  ],
});
