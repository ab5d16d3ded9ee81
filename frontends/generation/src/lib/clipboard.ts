import { toast } from '@aict/web-kit';

/** Copies `text` and says so (SPEC §8 'Copied to clipboard' / 'Failed to copy'). */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('Clipboard unavailable');
    await navigator.clipboard.writeText(text);
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
