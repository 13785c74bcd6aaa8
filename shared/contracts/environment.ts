/** Where this Strapi runs and whether it may push from here: part of the settings, status and entry answers. */
export interface PushEnvironment {
  /** NODE_ENV, "development" when unset (as Strapi's own `env`) */
  name: string;
  /** the config's `pushIn`, null when every environment pushes */
  pushIn: string[] | null;
  /** false outside `pushIn`: changes are recorded, nothing is pushed */
  pushing: boolean;
}

/** The account pushes go to, named without any secret: the dashboard shows it in every environment. */
export interface PushTarget {
  host: string | null;
  clientIdLast4: string | null;
}
