import type { Core } from '@strapi/strapi';
import { databaseUnavailable } from './middlewares/database';
import { getService } from './utils';

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  // Registered here so that every document change, from any caller, is seen once.
  // The middleware passes on whatever the next one returns, which Strapi's type spells out.
  strapi.documents.use(
    getService('outbox', { strapi }).middleware() as Parameters<Core.Strapi['documents']['use']>[0]
  );
  strapi.server.use(databaseUnavailable(strapi));
};

export default register;
