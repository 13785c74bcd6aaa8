import { errors } from '@strapi/utils';

/**
 * A write to the remote refused where this instance pushes nothing (`pushIn`, `syncEnabled`): an
 * ApplicationError, so a route answers 400 with its sentence and the CLI prints it in one line.
 */
export class PushRefusedError extends errors.ApplicationError<
  'PushRefusedError',
  string,
  { reason: string }
> {
  constructor(what: string, reason: string) {
    super(
      `Nothing is changed on the remote from here (${reason}): ${what} Run it where the plugin pushes.`,
      { reason }
    );
    this.name = 'PushRefusedError';
  }
}
