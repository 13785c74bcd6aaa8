import { PLUGIN_ID } from './pluginId';

export default {
  register(app: any) {
    app.registerPlugin({ id: PLUGIN_ID, name: 'Location Content' });
  },
  async registerTrads({ locales }: { locales: string[] }) {
    return Promise.all(
      locales.map(async (locale) => {
        try {
          const { default: data } = await import(`./translations/${locale}.json`);
          return { data: Object.fromEntries(Object.entries(data).map(([k, v]) => [`${PLUGIN_ID}.${k}`, v])), locale };
        } catch {
          return { data: {}, locale };
        }
      }),
    );
  },
};
