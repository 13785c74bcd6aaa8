/**
 * The TypeScript test helpers for what runs under plain Node: the benchmarks, the Strapi child
 * (strapi-child.js), jest.config.js. tsx compiles the helper asked for and what it imports, and
 * nothing else: Strapi itself is never loaded through tsx (it does not boot under it).
 *
 *   const { startChildApp } = require('../tests/helpers/node')('child-app');
 */
const tsx = require('tsx/cjs/api');

module.exports = (name) => tsx.require(`./${name}.ts`, __filename);
