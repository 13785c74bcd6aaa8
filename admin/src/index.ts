import type {
  BulkActionComponent,
  DocumentActionComponent,
  PanelComponent,
} from '@strapi/content-manager/strapi-admin';
import { PinMap } from '@strapi/icons';
import type { StrapiApp } from '@strapi/strapi/admin';
import { EntrySyncPanel } from './components/EntrySyncPanel';
import { PushNowAction } from './components/PushNowAction';
import { PushSelectedAction } from './components/PushSelectedAction';
import { PERMISSIONS } from './permissions';
import { PLUGIN_ID } from './pluginId';
import { getTranslation } from './utils/getTranslation';

/** The Content Manager's extension points (its plugin's `apis`), as far as this plugin uses them. */
interface ContentManagerApis {
  addEditViewSidePanel(panels: PanelComponent[]): void;
  addDocumentAction(
    reducer: (actions: DocumentActionComponent[]) => DocumentActionComponent[]
  ): void;
  addBulkAction(reducer: (actions: BulkActionComponent[]) => BulkActionComponent[]): void;
}

export default {
  register(app: StrapiApp) {
    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}`,
      icon: PinMap,
      intlLabel: { id: getTranslation('menu.sync'), defaultMessage: 'Location sync' },
      permissions: PERMISSIONS.readSync,
      Component: () =>
        // The page's own file name names its chunk (the package test finds the admin's pages by it).
        import('./pages/SyncPage/SyncPage').then((mod) => ({ default: mod.ProtectedSyncPage })),
    });

    app.addSettingsLink('global', {
      id: PLUGIN_ID,
      to: PLUGIN_ID,
      intlLabel: { id: getTranslation('settings.link'), defaultMessage: 'Location Content' },
      permissions: PERMISSIONS.readSettings,
      Component: () =>
        import('./pages/SettingsPage/SettingsPage').then((mod) => ({
          default: mod.ProtectedSettingsPage,
        })),
    });

    // Homepage widgets are recent in Strapi 5 (5.54 has them): feature-detected, older admins skip it.
    const widgets = (app as { widgets?: Partial<Pick<StrapiApp['widgets'], 'register'>> }).widgets;
    if (typeof widgets?.register === 'function')
      widgets.register({
        id: 'sync-status',
        pluginId: PLUGIN_ID,
        icon: PinMap,
        title: { id: getTranslation('widget.title'), defaultMessage: 'Location sync' },
        link: {
          label: { id: getTranslation('widget.link'), defaultMessage: 'Open the sync dashboard' },
          href: `/plugins/${PLUGIN_ID}`,
        },
        permissions: PERMISSIONS.readSync,
        component: () => import('./components/SyncWidget').then((mod) => mod.SyncWidget),
      });

    app.registerPlugin({ id: PLUGIN_ID, name: 'Location Content' });
  },

  bootstrap(app: StrapiApp) {
    const cm = app.getPlugin('content-manager')?.apis as Partial<ContentManagerApis> | undefined;
    if (!cm) return;
    cm.addEditViewSidePanel?.([EntrySyncPanel]);
    cm.addDocumentAction?.((actions) => [...actions, PushNowAction]);
    cm.addBulkAction?.((actions) => {
      // before "Delete", like the other additions to the list view
      const at = actions.findIndex((a) => a.type === 'delete');
      const next = [...actions];
      next.splice(at === -1 ? next.length : at, 0, PushSelectedAction);
      return next;
    });
  },

  async registerTrads({ locales }: { locales: string[] }) {
    return Promise.all(
      locales.map(async (locale) => {
        try {
          const { default: data } = await import(`./translations/${locale}.json`);
          return {
            data: Object.fromEntries(
              Object.entries(data).map(([k, v]) => [`${PLUGIN_ID}.${k}`, v])
            ),
            locale,
          };
        } catch {
          return { data: {}, locale };
        }
      })
    );
  },
};
