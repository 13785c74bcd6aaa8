/**
 * The TypeScript test helpers for what runs under plain Node: the benchmarks, jest.config.js, the
 * Strapi child (strapi-child.ts, a program). tsx compiles the helper asked for and what it
 * imports, and nothing else: Strapi itself is never loaded through tsx (it does not boot under it).
 *
 *   const { startChildApp } = require('../tests/helpers/node')('child-app');
 *   node tests/helpers/node.js strapi-child
 */
const tsx = require('tsx/cjs/api');

const helper = (name) => tsx.require(`./${name}.ts`, __filename);

module.exports = helper;
if (require.main === module) helper(process.argv[2]);
