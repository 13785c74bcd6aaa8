import type { PluginConfig } from '../../server/src/config/types';
import { defaults } from '../../server/src/config/defaults';
import { pushEnvironment, pushTarget } from '../../server/src/config/environment';
import { configShapeProblems } from '../../server/src/config/validate';
import { viewUrlOf } from '../../server/src/config/environment';

describe('pushIn', () => {
  const nodeEnv = process.env.NODE_ENV;
  afterEach(() => (process.env.NODE_ENV = nodeEnv));
  const pushEnvironmentIn = (config: Pick<PluginConfig, 'pushIn'>, name: string) => {
    process.env.NODE_ENV = name;
    return pushEnvironment(config);
  };

  test('unset: every environment pushes', () => {
    expect(configShapeProblems(defaults)).toEqual([]);
    expect(pushEnvironmentIn(defaults, 'staging')).toEqual({
      name: 'staging',
      pushIn: null,
      pushing: true,
    });
  });

  test('set: only the environments it names push', () => {
    expect(configShapeProblems({ ...defaults, pushIn: ['production'] })).toEqual([]);
    expect(pushEnvironmentIn({ pushIn: ['production'] }, 'production').pushing).toBe(true);
    expect(pushEnvironmentIn({ pushIn: ['production'] }, 'staging')).toEqual({
      name: 'staging',
      pushIn: ['production'],
      pushing: false,
    });
  });

  test.each([['production'], [[]], [['']], [['production', 3]], [null]])(
    'a bad value is named at boot: %p',
    (value) => {
      expect(configShapeProblems({ ...defaults, pushIn: value as unknown as string[] })).toEqual([
        `location-content.config.pushIn must be a non-empty list of environment names such as ['production'], got ${JSON.stringify(value)}`,
      ]);
    }
  );
});

test('the target names the host and the end of the client id, nothing else', () => {
  expect(pushTarget({ baseUrl: 'https://api.getwemap.com', clientId: 'abcdef123456' })).toEqual({
    host: 'api.getwemap.com',
    clientIdLast4: '3456',
  });
  expect(pushTarget({})).toEqual({ host: null, clientIdLast4: null });
});

describe('viewUrl', () => {
  const livemap = { pinpoint: 'https://livemap.getwemap.com/#/pinpoints/{id}' };

  test('fills the remote id into the template of the resource; none without a template or an id', () => {
    expect(configShapeProblems({ ...defaults, viewUrl: livemap })).toEqual([]);
    expect(viewUrlOf({ viewUrl: livemap }, 'pinpoint', 1234)).toBe(
      'https://livemap.getwemap.com/#/pinpoints/1234'
    );
    expect(viewUrlOf({ viewUrl: livemap }, 'event', 1234)).toBeNull();
    expect(viewUrlOf({ viewUrl: livemap }, 'pinpoint', null)).toBeNull();
    expect(viewUrlOf(defaults, 'pinpoint', 1)).toBeNull();
  });

  test('a bad template is named at boot', () => {
    expect(
      configShapeProblems({
        ...defaults,
        viewUrl: {
          pinpoint: 'https://x.test/p',
          place: 'https://x.test/{id}',
          event: 'javascript:alert({id})',
        } as PluginConfig['viewUrl'],
      })
    ).toEqual([
      'location-content.config.viewUrl.pinpoint must be a URL template holding {id}, got "https://x.test/p"',
      'location-content.config.viewUrl.place: place is not a resource (category, pinpoint, event, list)',
      'location-content.config.viewUrl.event must be an http(s) URL, got "javascript:alert({id})"',
    ]);
    expect(
      configShapeProblems({
        ...defaults,
        viewUrl: 'https://x.test/{id}' as unknown as PluginConfig['viewUrl'],
      })
    ).toHaveLength(1);
  });
});
