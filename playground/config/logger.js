const { winston, formats } = require('@strapi/logger');

module.exports = ({ env }) => ({
  transports: [
    new winston.transports.Console({
      level: env('STRAPI_LOG_LEVEL', 'info'),
      format: winston.format.combine(
        formats.levelFilter(env('STRAPI_LOG_LEVEL', 'info')),
        formats.prettyPrint({ timestamps: 'YYYY-MM-DD hh:mm:ss.SSS' })
      ),
    }),
  ],
});
