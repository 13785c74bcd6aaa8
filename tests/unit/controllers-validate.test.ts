import { errors, yup } from '@strapi/utils';
import {
  bodySchema,
  contentTypeField,
  localeField,
  validate,
} from '../../server/src/controllers/validate';

/** Request bodies are checked by yup schemas through Strapi's helper: one sentence, a 400 with details. */

const schema = bodySchema(
  {
    contentType: contentTypeField((uid) => uid === 'api::place.place'),
    dryRun: yup.boolean().typeError('dryRun must be true or false.'),
    locale: localeField(),
  },
  '{ contentType, dryRun?, locale? }'
);

const failure = async (body: unknown) => {
  try {
    await validate(schema, body);
  } catch (err) {
    return err as errors.ValidationError;
  }
  throw new Error('expected a ValidationError');
};

test('a valid body passes as it is; an empty one is an empty object', async () => {
  const body = { contentType: 'api::place.place', dryRun: true, locale: 'fr-FR' };
  expect(await validate(schema, body)).toEqual(body);
  expect(await validate(bodySchema({}, '{}'), undefined)).toEqual({});
  expect(await validate(bodySchema({}, '{}'), '')).toEqual({});
});

test("each problem is Strapi's ValidationError with the sentence and details.errors", async () => {
  const cases: Array<[unknown, string]> = [
    [[1, 2], 'Expected a JSON object { contentType, dryRun?, locale? }.'],
    [
      { contentType: 'api::place.place', force: true },
      'Unknown field force: expected { contentType, dryRun?, locale? }.',
    ],
    [
      { contentType: 'api::place.place', a: 1, b: 2 },
      'Unknown fields a, b: expected { contentType, dryRun?, locale? }.',
    ],
    [{}, 'contentType must be a content type uid such as "api::place.place".'],
    [
      { contentType: 'DROP TABLE' },
      'contentType must be a content type uid such as "api::place.place".',
    ],
    [
      { contentType: 'api::nope.nope' },
      'api::nope.nope is not mapped to the Location Content API (see Settings > Location Content).',
    ],
    [{ contentType: 'api::place.place', dryRun: 'yes' }, 'dryRun must be true or false.'],
    [
      { contentType: 'api::place.place', locale: '../etc' },
      'locale must be a locale code such as "en" or "fr-FR".',
    ],
  ];
  for (const [body, message] of cases) {
    const err = await failure(body);
    expect(err).toBeInstanceOf(errors.ValidationError);
    expect({ body, message: err.message }).toEqual({ body, message });
    expect((err.details as { errors: Array<{ message: string }> }).errors[0].message).toBe(message);
  }
});
