/** The settings routes of the admin API: credentials (never the secret) and the connection test. */
import type { PushEnvironment } from './environment';
import type { RemoteErrorCode } from './remote';
import type { MappingView } from './mappings';

export type CredentialField = 'baseUrl' | 'clientId' | 'clientSecret';

/** What the admin may read of the credentials: whether a secret is set and its last 4 characters, never the secret. */
export interface PublicSettings {
  baseUrl: string | null;
  clientId: string | null;
  secretSet: boolean;
  /** a secret is saved but none of this app's keys opens it (APP_KEYS or the encryption key changed): enter it again */
  secretUnreadable: boolean;
  secretLast4: string | null;
  /** fields fixed by config/plugins or the environment, with why */
  locked: Partial<Record<CredentialField, string>>;
  configured: boolean;
}

/** What the settings form may send: every field optional; an empty secret means "keep the saved one". */
export type SettingsInput = Partial<Record<CredentialField, string>>;

export type ConnectionFailure = RemoteErrorCode | 'incomplete' | 'invalid';

export interface ConnectionTestResult {
  ok: boolean;
  /** host:port the test talked to (never the credentials) */
  host: string | null;
  /** one sentence for the admin */
  message: string;
  /** what the remote or the network said, redacted; absent on success */
  detail?: string;
  code?: ConnectionFailure;
  status?: number;
  /** pinpoints visible with these credentials (the API's count, or the first page's size) */
  pinpoints?: number;
  /** the first few pinpoints of the first page */
  sample?: Array<{ id: number; name: string }>;
  durationMs: number;
}

/** A 400 on bad input names the field at fault, when there is one. */
export interface InputErrorDetails {
  field?: CredentialField;
}

/** GET /location-content/settings */
export declare namespace GetSettings {
  export interface Response {
    settings: PublicSettings;
    mappings: MappingView[];
    environment: PushEnvironment;
    /** how many e-mail recipients and whether a webhook is set (never the webhook's URL) */
    alerts: { email: number; webhook: boolean } | null;
  }
}

/** PUT /location-content/settings */
export declare namespace UpdateSettings {
  export interface Request {
    body: SettingsInput;
  }
  export interface Response {
    settings: PublicSettings;
  }
}

/** POST /location-content/settings/test: tests the form's values, saved or not. */
export declare namespace TestConnection {
  export interface Request {
    body: SettingsInput;
  }
  export interface Response {
    result: ConnectionTestResult;
  }
}
