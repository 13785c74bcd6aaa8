export type AlertKind = 'credentials' | 'failed' | 'stuck' | 'test';

/** The JSON body POSTed to `alerts.webhook` (and the text of the e-mail): never a secret or a token. */
export interface AlertMessage {
  kind: AlertKind;
  title: string;
  text: string;
  /** the plugin's dashboard in the admin */
  dashboardUrl: string;
  environment: string;
  at: string;
}

/** `POST /location-content/alerts/test` */
export declare namespace SendTestAlert {
  export interface Request {
    body: Record<string, never>;
  }
  export interface Response {
    result: {
      email: { to: number; error: string | null } | null;
      webhook: { status: number | null; error: string | null } | null;
    };
  }
}

/** Part of `GET /location-content/settings`: which channels are set, never the webhook URL (it may hold a token). */
export type AlertsView = { email: number; webhook: boolean } | null;
