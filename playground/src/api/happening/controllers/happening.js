const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreController('api::happening.happening');
