import {
  categoryPayload,
  eventPayload,
  listPayload,
  membershipPayload,
  pinpointPayload,
} from '../../server/src/remote/payloads';
import type { PinpointRequest } from '../../server/src/remote';

const media = { content: 'aGVsbG8=', name: 'a.png', type: 'image/png' };

describe('payload builders', () => {
  it('pinpointPayload keeps every contract field and nothing else', () => {
    const input = {
      name: 'Louvre',
      description: '<p>Museum</p>',
      address: 'Rue de Rivoli',
      latitude: 48.86,
      longitude: 2.33,
      altitude: 35,
      category: 4,
      tags: ['museum'],
      media_credits: '© me',
      media_file: { ...media, size: 5, url: 'x' },
      id: 9,
      documentId: 'abc',
      media_url: 'https://x',
      status: 'published',
      createdAt: 'now',
    } as PinpointRequest;
    expect(pinpointPayload(input)).toEqual({
      name: 'Louvre',
      description: '<p>Museum</p>',
      address: 'Rue de Rivoli',
      latitude: 48.86,
      longitude: 2.33,
      altitude: 35,
      category: 4,
      tags: ['museum'],
      media_credits: '© me',
      media_file: media,
    });
  });

  it('drops undefined but keeps null category (clears it) and empty strings', () => {
    expect(
      pinpointPayload({ name: 'a', description: undefined, category: null, address: '' })
    ).toEqual({
      name: 'a',
      category: null,
      address: '',
    });
    expect(Object.keys(pinpointPayload({ name: 'a', media_file: undefined }))).toEqual(['name']);
  });

  it('keeps a null media_file / image_file: it removes the media in both PUT modes', () => {
    expect(pinpointPayload({ name: 'a', media_file: null })).toEqual({
      name: 'a',
      media_file: null,
    });
    expect(eventPayload({ name: 'a', media_file: null })).toEqual({ name: 'a', media_file: null });
    expect(categoryPayload({ name: 'a', image_file: null })).toEqual({
      name: 'a',
      image_file: null,
    });
  });

  it('ignores inherited and prototype keys', () => {
    const input = Object.create({ name: 'inherited', evil: 1 }) as PinpointRequest;
    (input as Record<string, unknown>).latitude = 1;
    expect(pinpointPayload(input)).toEqual({ latitude: 1 });
  });

  it('eventPayload keeps event fields, strips extra date keys and sends ms UTC', () => {
    const input = {
      name: 'Concert',
      description: 'd',
      pinpoint: 3,
      tags: ['music'],
      media_credits: 'c',
      media_file: media,
      dates: [
        {
          start: '2018-02-16T22:00:00+02:00',
          end: '2018-02-16T23:00:00.123456+02:00',
          id: 1,
          label: 'x',
        },
      ],
      category: 5,
      latitude: 1,
      id: 2,
    } as never;
    expect(eventPayload(input)).toEqual({
      name: 'Concert',
      description: 'd',
      pinpoint: 3,
      tags: ['music'],
      media_credits: 'c',
      media_file: media,
      dates: [{ start: '2018-02-16T20:00:00.000Z', end: '2018-02-16T21:00:00.123Z' }],
    });
  });

  it('eventPayload throws on an invalid date rather than sending it', () => {
    expect(() =>
      eventPayload({ name: 'x', dates: [{ start: 'soon', end: '2018-02-16T20:00:00Z' }] })
    ).toThrow(/Not an ISO 8601 date: "soon"/);
  });

  it('categoryPayload keeps name and image_file only', () => {
    expect(
      categoryPayload({
        name: 'Museums',
        image_file: { ...media, extra: true },
        image_url: 'u',
        id: 1,
      } as never)
    ).toEqual({
      name: 'Museums',
      image_file: media,
    });
  });

  it('listPayload keeps name and description only', () => {
    expect(
      listPayload({ name: 'Tour', description: 'd', pinpoints: [1, 2], id: 3 } as never)
    ).toEqual({
      name: 'Tour',
      description: 'd',
    });
  });

  it('membershipPayload emits [{id}] and refuses non-ids', () => {
    expect(membershipPayload([1, 2])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(() => membershipPayload([1, 0])).toThrow(/Invalid pinpoint id/);
    expect(() => membershipPayload([1.5])).toThrow(TypeError);
    expect(() => membershipPayload(['3' as unknown as number])).toThrow(TypeError);
  });

  it('does not mutate the input', () => {
    const input = {
      name: 'a',
      dates: [{ start: '2018-02-16T20:00:00Z', end: '2018-02-16T21:00:00Z' }],
      extra: 1,
    };
    const copy = JSON.parse(JSON.stringify(input));
    eventPayload(input as never);
    expect(input).toEqual(copy);
  });
});
