import { i18n, toast } from '@aict/web-kit';

/**
 * Copies `text` (or what `text()` resolves to, e.g. a content's full text fetched on demand)
 * and says so (SPEC §8 'Copied to clipboard' / 'Failed to copy').
 */
export async function copyToClipboard(text: string | (() => Promise<string>)): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('Clipboard unavailable');
    await navigator.clipboard.writeText(typeof text === 'string' ? text : await text());
    toast({ title: i18n.t('generation.copied'), variant: 'success' });
    return true;
  } catch {
    toast({
      title: i18n.t('generation.copyFailed'),
      description: i18n.t('generation.copyFailedText'),
      variant: 'destructive',
    });
    return false;
  }
}
