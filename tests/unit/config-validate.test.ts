import { defaults } from '../../server/src/config/defaults';
import { pushEnvironment, pushTarget } from '../../server/src/config/environment';
import { configShapeProblems } from '../../server/src/config/validate';

describe('pushIn', () => {
  test('unset: every environment pushes', () => {
    expect(configShapeProblems(defaults)).toEqual([]);
    expect(pushEnvironment(defaults, 'staging')).toEqual({ name: 'staging', pushIn: null, pushing: true });
  });

  test('set: only the environments it names push', () => {
    expect(configShapeProblems({ ...defaults, pushIn: ['production'] })).toEqual([]);
    expect(pushEnvironment({ pushIn: ['production'] }, 'production').pushing).toBe(true);
    expect(pushEnvironment({ pushIn: ['production'] }, 'staging')).toEqual({ name: 'staging', pushIn: ['production'], pushing: false });
  });

  test.each([['production'], [[]], [['']], [['production', 3]], [null]])('a bad value is named at boot: %p', (value) => {
    expect(configShapeProblems({ ...defaults, pushIn: value as any })).toEqual([
      `location-content.config.pushIn must be a non-empty list of environment names such as ['production'], got ${JSON.stringify(value)}`,
    ]);
  });
});

test('the target names the host and the end of the client id, nothing else', () => {
  expect(pushTarget({ baseUrl: 'https://api.getwemap.com', clientId: 'abcdef123456' })).toEqual({ host: 'api.getwemap.com', clientIdLast4: '3456' });
  expect(pushTarget({})).toEqual({ host: null, clientIdLast4: null });
});
