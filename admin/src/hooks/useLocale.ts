import { useQueryParams } from '@strapi/strapi/admin';

/** The locale the Content Manager is showing (?plugins[i18n][locale]=fr), if any. */
export function useCurrentLocale(): string | undefined {
  const [{ query }] = useQueryParams<{ plugins?: { i18n?: { locale?: string } } }>();
  return query?.plugins?.i18n?.locale;
}
