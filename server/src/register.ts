import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from './permissions';

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  // Registered here so that every document change, from any caller, is seen once.
  strapi.documents.use(strapi.plugin(PLUGIN_ID).service('sync').middleware());
};

export default register;
