import { currentLanguage, i18n, type Language } from './i18n';

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

const formats = new Map<Language, Intl.RelativeTimeFormat>();
function formatFor(language: Language): Intl.RelativeTimeFormat {
  let format = formats.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(language, { numeric: 'always' });
    formats.set(language, format);
  }
  return format;
}

/**
 * '5 minutes ago', '2 hours ago', 'less than a minute ago' (a future date counts as now), in
 * the current language ('5 minuten geleden' in Dutch).
 */
export function relativeTime(
  date: string | number | Date,
  now: Date = new Date(),
  language: Language = currentLanguage(),
): string {
  const seconds = Math.max(0, (now.getTime() - new Date(date).getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return formatFor(language).format(-Math.floor(seconds / size), unit);
  }
  return i18n.t('common.lessThanAMinuteAgo', { lng: language });
}
