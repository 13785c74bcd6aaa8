declare module '@strapi/strapi/admin' {
  export * from '@strapi/admin/strapi-admin';
}
