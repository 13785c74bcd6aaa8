import * as React from 'react';
import { isBaseQueryError, useAPIErrorHandler, useNotification } from '@strapi/strapi/admin';

/** What a failed query or mutation of services/api holds: the server's error, or one thrown on the way. */
export type RequestError = Parameters<typeof isBaseQueryError>[0];

/**
 * The one way a failed request is put into words: the server's own sentence (400s carry one),
 * else the fetch error's, through Strapi's handler. `notify` shows it as a notification.
 */
export function useRequestError() {
  const { _unstableFormatAPIError: formatAPIError } = useAPIErrorHandler();
  const { toggleNotification } = useNotification();
  const message = React.useCallback(
    (error: RequestError) =>
      isBaseQueryError(error) ? formatAPIError(error) : (error.message ?? String(error)),
    [formatAPIError]
  );
  const notify = React.useCallback(
    (error: RequestError) => toggleNotification({ type: 'danger', message: message(error) }),
    [message, toggleNotification]
  );
  return { message, notify };
}
