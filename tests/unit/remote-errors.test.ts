import { RemoteError, classifyStatus, parseRetryAfter } from '../../server/src/remote';
import { describeBody, bodyForDisplay, MAX_BODY_CHARS } from '../../server/src/remote/errors';

describe('classifyStatus', () => {
  it.each([
    [400, 'validation', false],
    [401, 'auth', false],
    [403, 'forbidden', false],
    [404, 'not_found', false],
    [405, 'client', false],
    [408, 'timeout', true],
    [409, 'client', false],
    [410, 'not_found', false],
    [413, 'client', false],
    [415, 'client', false],
    [422, 'validation', false],
    [429, 'rate_limited', true],
    [500, 'server', true],
    [502, 'server', true],
    [503, 'server', true],
    [504, 'server', true],
    [599, 'server', true],
  ])('%i -> %s (retryable %s)', (status, code, retryable) => {
    expect(classifyStatus(status)).toBe(code);
    const err = new RemoteError({
      message: 'm',
      code: classifyStatus(status),
      status,
      method: 'GET',
      path: '/p',
    });
    expect(err.retryable).toBe(retryable);
  });

  it('network and timeout without a status are retryable', () => {
    expect(
      new RemoteError({ message: 'm', code: 'network', method: 'GET', path: '/' }).retryable
    ).toBe(true);
    expect(
      new RemoteError({ message: 'm', code: 'timeout', method: 'GET', path: '/' }).retryable
    ).toBe(true);
  });

  it('is an Error with a name and a JSON form for storing', () => {
    const err = new RemoteError({
      message: 'boom',
      code: 'server',
      status: 502,
      method: 'GET',
      path: '/x',
      body: 'b',
    });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('RemoteError');
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({
      message: 'boom',
      code: 'server',
      status: 502,
      retryable: true,
      body: 'b',
    });
  });
});

describe('parseRetryAfter', () => {
  beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2024-01-01T00:00:00Z')));
  afterEach(() => jest.restoreAllMocks());
  it.each([
    ['120', 120_000],
    ['0', 0],
    [' 7 ', 7000],
    ['1.5', 1500],
    ['Mon, 01 Jan 2024 00:00:30 GMT', 30_000],
    ['Sun, 31 Dec 2023 23:59:00 GMT', 0],
  ])('%j -> %i ms', (value, ms) => {
    expect(parseRetryAfter(value)).toBe(ms);
  });
  it.each([[null], [undefined], [''], ['-5'], ['soon'], ['12abc']])('%j -> undefined', (value) => {
    expect(parseRetryAfter(value as string | null)).toBeUndefined();
  });
});

describe('describeBody', () => {
  it('flattens DRF field errors', () => {
    expect(
      describeBody({
        latitude: ['Ensure this value is less than or equal to 90.'],
        name: ['This field is required.'],
      })
    ).toBe(
      'latitude: Ensure this value is less than or equal to 90.; name: This field is required.'
    );
  });
  it('flattens nested and general errors', () => {
    expect(
      describeBody({ non_field_errors: ['Bad combo.'], dates: [{}, { start: ['Invalid.'] }] })
    ).toBe('Bad combo.; dates[1].start: Invalid.');
  });
  it('uses detail and OAuth error fields', () => {
    expect(describeBody({ detail: 'Not found.' })).toBe('Not found.');
    expect(describeBody({ error: 'invalid_client' })).toBe('invalid_client');
    expect(describeBody({ error: 'invalid_request', error_description: 'Missing x' })).toBe(
      'invalid_request: Missing x'
    );
  });
  it('names an HTML page by its title, shortens text, ignores empty', () => {
    expect(
      describeBody('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>')
    ).toBe('HTML page "502 Bad Gateway"');
    expect(describeBody('<!doctype html><p>x</p>')).toBe('HTML page');
    expect(describeBody('x'.repeat(2000))?.length).toBeLessThan(520);
    expect(describeBody(undefined)).toBeUndefined();
    expect(describeBody(['a', 'b'])).toBe('a b');
    expect(describeBody({ weird: { deep: 1 } })).toBe('weird.deep: 1');
  });
});

describe('bodyForDisplay', () => {
  it('parses JSON, keeps text, truncates long bodies', () => {
    expect(bodyForDisplay('{"a":1}')).toEqual({ a: 1 });
    expect(bodyForDisplay('plain')).toBe('plain');
    expect(bodyForDisplay('')).toBeUndefined();
    const long = bodyForDisplay('y'.repeat(MAX_BODY_CHARS * 3)) as string;
    expect(long.length).toBeLessThan(MAX_BODY_CHARS + 100);
    expect(long).toMatch(/more characters\]$/);
  });
});
