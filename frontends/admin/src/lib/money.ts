import { useTranslation } from '@aict/web-kit';

// Amounts on the admin screens (usage, a prompt's results): typed in currency units, sent and
// stored in integer micro-units (issue 14), shown in the screen's language.

const MICROS = 1_000_000;

/** '' → null (no limit); a number ≥ 0 → itself; anything else → undefined (not valid). */
export function parseAmount(text: string, integer = false): number | null | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value)))
    return undefined;
  return value;
}

export const toMicros = (amount: number) => Math.round(amount * MICROS);
export const fromMicros = (micros: number) => micros / MICROS;

/** Micro-units as money in the screen's language (2 decimals; 4 below one cent). */
export function useMoney() {
  const { i18n } = useTranslation();
  return (micros: number, currency: string) =>
    new Intl.NumberFormat(i18n.language, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: micros !== 0 && Math.abs(micros) < 10_000 ? 4 : 2,
    }).format(fromMicros(micros));
}
