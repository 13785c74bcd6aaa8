import { errors, validateYupSchema, yup } from '@strapi/utils';

/** A check no schema states (an entry that does not exist, no report yet): one sentence, a 400. */
export const invalid = (message: string) => new errors.ValidationError(message);

/** documentId of Strapi 5: 24 lowercase alphanumerics by default; accept any reasonable token, refuse junk. */
export const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const LOCALE = /^[A-Za-z0-9_-]{1,32}$/;
export const UID = /^[a-z0-9-]+::[a-z0-9-]+\.[a-z0-9-]+$/;

/** A request body: a JSON object of these fields and no other; `shape` spells them in the messages. */
// Declared return types: the inferred ones name @strapi/utils' nested copy of yup, which a
// declaration file cannot reference (TS2742), and the build then leaves out the server's index.d.ts.
export const bodySchema = <S extends Record<string, yup.AnySchema>>(
  fields: S,
  shape: string
): yup.ObjectSchema<S> =>
  yup
    .object(fields)
    .typeError(`Expected a JSON object ${shape}.`)
    .noUnknown(
      true,
      // yup passes the unknown keys joined by ', '
      ({ unknown }: { path: string; unknown?: string }) =>
        `Unknown field${String(unknown).includes(',') ? 's' : ''} ${unknown}: expected ${shape}.`
    );

/**
 * Strapi's helper throws its ValidationError (a 400 with `details.errors`); the first problem only,
 * so that the message stays the one sentence an admin reads. An empty body is an empty object.
 */
export const validate = <T extends yup.AnySchema>(schema: T, value: unknown) =>
  validateYupSchema(schema, { strict: true, abortEarly: true })(
    value === undefined || value === null || value === '' ? {} : value
  );

/** A locale code, or null/absent/'' for the default locale. */
export const localeField = () => {
  const message = 'locale must be a locale code such as "en" or "fr-FR".';
  return yup.string().nullable().typeError(message).matches(LOCALE, {
    message,
    excludeEmptyString: true,
  });
};

/** A content type uid; `mapped` says whether the plugin syncs it. */
export const contentTypeField = (mapped: (uid: string) => boolean): yup.AnySchema => {
  const message = 'contentType must be a content type uid such as "api::place.place".';
  return yup
    .string()
    .typeError(message)
    .required(message)
    .matches(UID, message)
    .test(
      'mapped',
      ({ value }: { value: string }) =>
        `${value} is not mapped to the Location Content API (see Settings > Location Content).`,
      (value) => !value || !UID.test(value) || mapped(value)
    );
};
