import {
  brandVoiceInstruction,
  DEFAULT_CONTENT_LANGUAGE,
  fillTemplate,
  isModelFor,
  parseTemplate,
  type GenerateBody,
  type GenerateReplyBody,
  type GenerateResponse,
  type TrustedContext,
  voiceFlagsOf,
} from '@aict/contracts';
import type { GenerationRecord } from '../data/generation.model';
import type { UsageKind } from '../data/usage.model';
import type { CallUsage, MeterInfo } from './usage';
import type { ChatMessageParam } from '../provider/provider-client';
import { attachmentParts, type UserPart } from './attachments';
import type { DomainDeps } from './domain-deps';
import { prepareImage } from './generate-image';
import { accessRevoked, contentNotFound, modelNotAllowed } from './generation.errors';
import { newContentId, saveGeneration, titleFrom } from './save-generation';
import { loadPrompt, loadProviderConfig, type KeyedProviderConfig } from './upstream';

/** How a prepared generation reports progress; `signal` is the client going away (streams). */
export interface RunIO {
  signal?: AbortSignal;
  onDelta?: (text: string) => void;
  /**
   * The content id to use (derived from an Idempotency-Key, so that a generation re-run after
   * a crash cannot make a second content); a new one otherwise.
   */
  contentId?: string;
  /** Aborted when the caller's rights go while it runs: nothing may be saved then. */
  revoked?: AbortSignal;
  /**
   * What the provider call used (the usage ledger), once it answered; answers what it cost
   * (micro-units, at the call's price) when known, which the content records.
   */
  onUsage?: (usage: CallUsage) => number | undefined;
}

/**
 * A generation whose checks passed (prompt, model, key, attachments): what is left is the
 * provider call and the save. Split so that a stream opens only after every refusal that
 * deserves a plain JSON error.
 */
export interface PreparedGeneration {
  /** What the usage ledger and the budget check need before the call. */
  meter: MeterInfo;
  run(io: RunIO): Promise<GenerateResponse>;
}

function userMessage(text: string, parts: UserPart[]): ChatMessageParam {
  if (parts.length === 0) return { role: 'user', content: text };
  return { role: 'user', content: [{ type: 'text', text }, ...parts] };
}

/**
 * The workspace's brand voice as the first system message (issue 18), before everything else;
 * none without one. Read from the cached provider configuration: no call of its own.
 */
function withBrandVoice(
  provider: KeyedProviderConfig,
  messages: ChatMessageParam[],
): ChatMessageParam[] {
  const voice = brandVoiceInstruction(provider.brandVoice);
  return voice ? [{ role: 'system', content: voice }, ...messages] : messages;
}

interface TextJob {
  ctx: TrustedContext;
  provider: KeyedProviderConfig;
  record: Omit<GenerationRecord, 'content' | 'usage' | 'createdAt'>;
  messages: ChatMessageParam[];
  kind: UsageKind;
}

function textRun(d: DomainDeps, job: TextJob): PreparedGeneration {
  return {
    meter: { model: job.record.model, kind: job.kind, promptId: job.record.promptId },
    async run({ signal, onDelta, contentId, revoked, onUsage }) {
      const id = contentId ?? job.record._id;
      // A first message is its own thread: its thread id is its id.
      const threadId = job.record.threadId === job.record._id ? id : job.record.threadId;
      const result = await d.provider.streamChat({
        config: job.provider,
        model: job.record.model,
        messages: withBrandVoice(job.provider, job.messages),
        signal,
        onDelta,
      });
      const costMicros = onUsage?.({
        inputTokens: result.usage.promptTokens,
        outputTokens: result.usage.completionTokens,
        images: null,
        stopped: result.stopped,
      });
      const voiceFlags = voiceFlagsOf(result.text, job.provider.brandVoice);
      const record: GenerationRecord = {
        ...job.record,
        _id: id,
        threadId,
        content: result.text,
        ...(voiceFlags.length > 0 ? { voiceFlags } : {}),
        ...(costMicros === undefined ? {} : { costMicros }),
        usage: result.usage,
        metadata: {
          ...job.record.metadata,
          usage: result.usage,
          ...(result.stopped ? { stopped: true } : {}),
        },
        createdAt: new Date(),
      };
      if (revoked?.aborted) throw accessRevoked();
      // A stream stopped before the first word leaves nothing worth keeping.
      if (!result.stopped || result.text !== '') await saveGeneration(d, record);
      return { result: { text: result.text }, content: { id: record._id } };
    },
  };
}

/** POST /api/generate: the first message of a chat or a text/image generation from a prompt. */
export async function prepareGenerate(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  body: GenerateBody,
): Promise<PreparedGeneration> {
  const prompt = await loadPrompt(d, ctx, body.promptId, workspaceId);
  const provider = await loadProviderConfig(d, workspaceId);
  const model =
    body.model ??
    (prompt.model ||
      (prompt.contentType === 'image' ? provider.defaultImageModel : provider.defaultTextModel));
  if (!isModelFor(prompt.contentType, model)) throw modelNotAllowed();
  const language = body.language ?? DEFAULT_CONTENT_LANGUAGE;

  if (prompt.contentType === 'image') {
    return prepareImage(d, ctx, { prompt, provider, model, workspaceId, body, reference: null });
  }

  const instruction = fillTemplate(prompt.template, body.inputs, { language }).trim();
  const message = body.inputs.message?.trim() ?? '';
  const usesMessage = parseTemplate(prompt.template).variables.includes('message');
  const { parts, ids } = await attachmentParts(d, ctx, workspaceId, body.attachments);
  const messages: ChatMessageParam[] =
    message && !usesMessage
      ? [
          ...(instruction ? [{ role: 'system' as const, content: instruction }] : []),
          userMessage(message, parts),
        ]
      : [userMessage(instruction || message, parts)];

  const id = newContentId();
  return textRun(d, {
    ctx,
    provider,
    messages,
    kind: message ? 'chat' : 'text',
    record: {
      _id: id,
      workspaceId,
      userId: ctx.uid!,
      title: titleFrom(message, prompt.name),
      contentType: 'text',
      model,
      language,
      promptId: prompt.id,
      ...(prompt.version ? { promptVersion: prompt.version } : {}),
      parentId: null,
      threadId: id,
      metadata: { inputs: body.inputs, ...(ids.length > 0 ? { attachments: ids } : {}) },
      instruction: instruction || null,
      imageKey: null,
    },
  });
}

/**
 * POST /api/generate-reply: the conversation so far plus the new message. The thread is the
 * parent's (read from our own records by `_id`), and its first instruction goes along again.
 */
export async function prepareReply(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  body: GenerateReplyBody,
): Promise<PreparedGeneration> {
  let parent: GenerationRecord | null = null;
  if (body.parentContentId) {
    parent = await d.generations.findById(body.parentContentId);
    const visible = parent && !parent.removedAt && parent.workspaceId === workspaceId;
    if (!visible) throw contentNotFound();
  }
  const provider = await loadProviderConfig(d, workspaceId);
  const { parts, ids } = await attachmentParts(d, ctx, workspaceId, body.attachments);
  const instruction = parent?.instruction ?? null;
  const messages: ChatMessageParam[] = [
    ...(instruction ? [{ role: 'system' as const, content: instruction }] : []),
    ...body.conversationHistory.map((m): ChatMessageParam =>
      m.role === 'user'
        ? { role: 'user', content: m.content }
        : { role: 'assistant', content: m.content },
    ),
    userMessage(body.message, parts),
  ];

  const id = newContentId();
  const promptId = body.promptId ?? parent?.promptId ?? null;
  // The thread's instruction came from the version its first message ran: a reply records it.
  const promptVersion =
    parent?.promptVersion && promptId === parent.promptId ? parent.promptVersion : undefined;
  return textRun(d, {
    ctx,
    provider,
    messages,
    kind: 'reply',
    record: {
      _id: id,
      workspaceId,
      userId: ctx.uid!,
      title: titleFrom(body.message, 'Reply'),
      contentType: 'text',
      model: body.model,
      language: parent?.language ?? DEFAULT_CONTENT_LANGUAGE,
      promptId,
      ...(promptVersion ? { promptVersion } : {}),
      parentId: parent?._id ?? null,
      threadId: parent?.threadId ?? id,
      metadata: { originalMessage: body.message, ...(ids.length > 0 ? { attachments: ids } : {}) },
      instruction,
      imageKey: null,
    },
  });
}
