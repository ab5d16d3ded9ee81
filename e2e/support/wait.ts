/**
 * Polls `check` (an eventually consistent step, such as a membership event reaching the
 * gateway) until it holds, or fails naming `what`.
 */
export async function eventually(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
