import { toast } from '@aict/web-kit';

/**
 * Copies `text` (or what `text()` resolves to, e.g. a content's full text fetched on demand)
 * and says so (SPEC §8 'Copied to clipboard' / 'Failed to copy').
 */
export async function copyToClipboard(text: string | (() => Promise<string>)): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('Clipboard unavailable');
    await navigator.clipboard.writeText(typeof text === 'string' ? text : await text());
    toast({ title: 'Copied to clipboard', variant: 'success' });
    return true;
  } catch {
    toast({
      title: 'Failed to copy',
      description: 'Could not copy the content to clipboard',
      variant: 'destructive',
    });
    return false;
  }
}
