import { useIntl } from 'react-intl';
import { getTranslation } from '../utils/getTranslation';

/** The values a message may interpolate (ICU arguments: numbers for plurals, strings, dates). */
type Values = Record<string, string | number | boolean | Date | null | undefined>;

/** The plugin's messages: `t('sync.title', 'Location Content sync', values)`. */
export type T = (id: string, defaultMessage: string, values?: Values) => string;

export function useT(): T {
  const { formatMessage } = useIntl();
  return (id, defaultMessage, values) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values);
}
