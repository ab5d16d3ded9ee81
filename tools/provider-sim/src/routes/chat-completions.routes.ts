import { randomBytes } from 'node:crypto';
import { countPromptTokens, composeAnswer, tokenize } from '../lib/answer';
import { parseChatRequest } from '../lib/chat-request';
import { sleep, write } from '../lib/http';
import { simErrors } from '../lib/openai-errors';
import type { SimContext } from '../request-context';
import { isChatModel } from './models.routes';

const SYSTEM_FINGERPRINT = 'fp_provider_sim';

/** POST /v1/chat/completions: a deterministic answer, as JSON or as server-sent events. */
export async function createChatCompletion(ctx: SimContext): Promise<void> {
  if (ctx.input.kind !== 'json') throw simErrors.badRequest('The request body must be JSON.');
  const request = parseChatRequest(ctx.input.value);
  if (!isChatModel(request.model)) throw simErrors.modelNotFound(request.model);
  ctx.record.chat = request.summary;

  const allTokens = tokenize(composeAnswer(request.summary, ctx.config.fillerTokens));
  const { maxTokens } = request.summary;
  const cut = maxTokens !== undefined && allTokens.length > maxTokens;
  const tokens = cut ? allTokens.slice(0, maxTokens) : allTokens;
  const finishReason = cut ? 'length' : 'stop';
  const text = tokens.join('');
  const promptTokens = countPromptTokens(request.summary);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: tokens.length,
    total_tokens: promptTokens + tokens.length,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
  ctx.record.output = { text, completionTokens: tokens.length, promptTokens };
  ctx.touch();

  const id = `chatcmpl-${randomBytes(12).toString('base64url')}`;
  const created = Math.floor(Date.now() / 1000);
  const head = {
    id,
    created,
    model: request.model,
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  };

  if (!request.stream) {
    const { timeToFirstTokenMs, tokensPerSecond } = ctx.config;
    const generationMs = tokensPerSecond > 0 ? (tokens.length / tokensPerSecond) * 1000 : 0;
    if (!(await sleep(timeToFirstTokenMs + generationMs, ctx.signal))) return;
    ctx.json(200, {
      ...head,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      usage,
    });
    return;
  }

  await streamChatCompletion(ctx, {
    head,
    tokens,
    finishReason,
    usage: request.summary.includeUsage ? usage : undefined,
  });
}

interface StreamPlan {
  head: Record<string, unknown>;
  tokens: string[];
  finishReason: string;
  usage: Record<string, unknown> | undefined;
}

async function streamChatCompletion(ctx: SimContext, plan: StreamPlan): Promise<void> {
  const { res, signal } = ctx;
  const { timeToFirstTokenMs, tokensPerSecond, chunkSize } = ctx.config;
  const withUsage = plan.usage !== undefined;
  const event = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({
      ...plan.head,
      object: 'chat.completion.chunk',
      choices,
      ...(withUsage ? { usage: null } : {}),
      ...extra,
    })}\n\n`;
  const choice = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  });

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.record.requestId,
  });
  res.flushHeaders();
  ctx.markHeadersSent();
  if (!(await sleep(timeToFirstTokenMs, signal))) return;

  // Events in order: role, content chunks, finish, usage (when asked), [DONE].
  const contentEvents: string[] = [];
  for (let i = 0; i < plan.tokens.length; i += chunkSize) {
    contentEvents.push(event([choice({ content: plan.tokens.slice(i, i + chunkSize).join('') })]));
  }
  const closing = [event([choice({}, plan.finishReason)])];
  if (plan.usage) closing.push(event([], { usage: plan.usage }));
  const events = [
    event([choice({ role: 'assistant', content: '', refusal: null })]),
    ...contentEvents,
    ...closing,
  ];
  const limit =
    ctx.truncateAfter === null ? events.length : Math.min(ctx.truncateAfter, events.length - 1);

  // Paced: role + first content go out at the time to first token, content event k (k ≥ 2)
  // once (k-1)·chunkSize tokens have had their time; the closing events follow the last one.
  const paced = tokensPerSecond > 0;
  const firstContentAt = Date.now();
  const dueAt = (index: number): number =>
    paced && index >= 2 && index <= contentEvents.length
      ? firstContentAt + (((index - 1) * chunkSize) / tokensPerSecond) * 1000
      : 0;
  let sent = 0;
  while (sent < limit) {
    if (!(await sleep(dueAt(sent) - Date.now(), signal))) return;
    let end = sent + 1;
    while (end < limit && dueAt(end) <= Date.now()) end += 1; // all that is due, in one write
    if (!(await write(res, events.slice(sent, end).join(''), signal))) return;
    if (sent <= 1 && end > 1) ctx.markFirstToken();
    sent = end;
    ctx.record.output!.chunksSent = sent;
  }
  if (ctx.truncateAfter !== null) {
    ctx.touch();
    ctx.truncate();
    return;
  }
  res.end('data: [DONE]\n\n');
}
