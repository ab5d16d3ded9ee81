import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CHAT_LANGUAGE } from '@aict/contracts/constants';
import type { Attachment, ContentItem, ConversationResponse } from '@aict/contracts';
import {
  ContinueRecordError,
  apiJson,
  errorMessage,
  generateText,
  invalidateContents,
  isApiError,
  queryKeys,
  readContinueRecord,
  rebuildConversation,
  removeContinueRecord,
  toast,
  useWorkspace,
} from '@aict/web-kit';
import { useSearchParams } from 'react-router-dom';
import { NoDefaultPromptError, fetchDefaultPrompt } from '../api/get-default-prompt';
import {
  NO_DEFAULT_PROMPT_TOAST,
  conversationHistory,
  loadedDescription,
  messageId,
  replyModel,
  type ScreenMessage,
} from '../lib/chat-rules';

/** new: empty or started here; viewing: loaded, read-only; continued: loaded, then continued. */
export type ChatMode = 'new' | 'viewing' | 'continued';

const toMessages = (items: ConversationResponse): ScreenMessage[] =>
  rebuildConversation(items).map((message) => ({ ...message, id: messageId() }));

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

/**
 * The chat of SPEC §4: sending (generate, then generate-reply with the history and the parent
 * content id), streaming with stop, loading a conversation (history panel, ?conversation=,
 * ?continue=true), continuing it, and starting a new chat.
 */
export function useChat() {
  const queryClient = useQueryClient();
  const { currentWorkspaceId } = useWorkspace();
  const [searchParams, setSearchParams] = useSearchParams();
  const [messages, setMessages] = useState<ScreenMessage[]>([]);
  const [parentId, setParentId] = useState<string | null>(null);
  const [mode, setMode] = useState<ChatMode>('new');
  const [generating, setGenerating] = useState(false);
  const [loadingConversation, setLoadingConversation] = useState(false);
  const [recordModel, setRecordModel] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  /** The parent the last message was sent under here (regenerate sends it again from there). */
  const [lastSend, setLastSend] = useState<{ parentId: string | null } | null>(null);
  /** The conversation id the screen shows (so the URL effect does not load it twice). */
  const shownRef = useRef<string | null>(null);
  const loadRun = useRef(0);

  const reset = useCallback(() => {
    abortRef.current?.abort();
    loadRun.current += 1;
    shownRef.current = null;
    setMessages([]);
    setLastSend(null);
    setParentId(null);
    setMode('new');
    setRecordModel(null);
    setLoadingConversation(false);
  }, []);

  /** Shows a thread read-only; on a failed thread fetch falls back to `fallback` (SPEC §7). */
  const showThread = useCallback(
    async (id: string, fallback: { content: string; title: string } | null) => {
      const run = ++loadRun.current;
      abortRef.current?.abort();
      shownRef.current = id;
      setLoadingConversation(true);
      try {
        const items = await apiJson<ConversationResponse>('GET', queryKeys.conversation(id)[0]);
        if (run !== loadRun.current) return;
        const loaded = toMessages(items);
        setMessages(loaded);
        setLastSend(null);
        setParentId(items.at(-1)?.id ?? id);
        setMode('viewing');
        toast({
          title: 'Gesprek geladen',
          description: loadedDescription(loaded.length, items[0]?.title ?? fallback?.title ?? ''),
        });
      } catch {
        if (run !== loadRun.current) return;
        setLastSend(null);
        setMessages(
          fallback ? [{ id: messageId(), role: 'assistant', content: fallback.content }] : [],
        );
        setParentId(id);
        setMode('viewing');
        toast({
          title: 'Fout bij laden gesprek',
          description: 'Kon het gesprek niet laden.',
          variant: 'destructive',
        });
      } finally {
        if (run === loadRun.current) setLoadingConversation(false);
      }
    },
    [],
  );

  /** A text item of the history panel: load its thread and push conversation={id}. */
  const openFromHistory = useCallback(
    (item: Pick<ContentItem, 'id' | 'content' | 'title'>) => {
      shownRef.current = item.id;
      setSearchParams({ conversation: item.id });
      void showThread(item.id, item);
    },
    [setSearchParams, showThread],
  );

  /** ?conversation={id}: the content first (not found / failure texts), then its thread. */
  const openFromUrl = useCallback(
    async (id: string) => {
      const run = ++loadRun.current;
      shownRef.current = id;
      setLoadingConversation(true);
      let item: ContentItem;
      try {
        item = await apiJson<ContentItem>('GET', queryKeys.content(id)[0]);
      } catch (error) {
        if (run !== loadRun.current) return;
        setLoadingConversation(false);
        toast(
          isApiError(error, 404) || isApiError(error, 403)
            ? {
                title: 'Gesprek niet gevonden',
                description: 'Het opgevraagde gesprek kon niet worden geladen.',
                variant: 'destructive',
              }
            : {
                title: 'Fout bij laden',
                description: 'Er is een fout opgetreden bij het laden van het gesprek.',
                variant: 'destructive',
              },
        );
        return;
      }
      if (run !== loadRun.current) return;
      await showThread(id, item);
    },
    [showThread],
  );

  /** ?continue=true: the saved record, loaded, then the URL becomes conversation={id}. */
  const openFromRecord = useCallback(async () => {
    let record;
    try {
      record = readContinueRecord();
    } catch (error) {
      if (!(error instanceof ContinueRecordError)) throw error;
      setSearchParams({}, { replace: true });
      toast({ title: 'Fout bij laden gesprek', variant: 'destructive' });
      return;
    }
    if (!record) {
      setSearchParams({}, { replace: true });
      return;
    }
    shownRef.current = record.contentId;
    setSearchParams({ conversation: record.contentId }, { replace: true });
    setRecordModel(record.model);
    await showThread(record.contentId, {
      content: record.initialContent,
      title: record.contentTitle,
    });
  }, [setSearchParams, showThread]);

  const conversationParam = searchParams.get('conversation');
  const continueParam = searchParams.get('continue') === 'true';
  useEffect(() => {
    if (continueParam) {
      void openFromRecord();
    } else if (conversationParam && conversationParam !== shownRef.current) {
      void openFromUrl(conversationParam);
    } else if (!conversationParam && shownRef.current !== null && mode !== 'new') {
      reset(); // back to the page without a conversation
    }
    // mode is read, not followed: only the URL triggers loads
  }, [conversationParam, continueParam, openFromRecord, openFromUrl, reset]);

  useEffect(() => () => abortRef.current?.abort(), []);

  const newChat = useCallback(() => {
    reset();
    removeContinueRecord();
    setSearchParams({});
  }, [reset, setSearchParams]);

  const continueConversation = useCallback(() => {
    setMode('continued');
    toast({ title: 'Gesprek voortgezet' });
  }, []);

  const stop = useCallback(() => abortRef.current?.abort(), []);

  /**
   * Sends a message (the caller checked canSend). Resolves true when an answer arrived (the
   * caller then clears the input and the attachments).
   */
  const send = useCallback(
    async (
      text: string,
      attachments: Attachment[],
      /** Send from an earlier point (regenerate): these messages, under this parent. */
      from: { messages: ScreenMessage[]; parentId: string | null } = { messages, parentId },
    ): Promise<boolean> => {
      if (currentWorkspaceId === null || generating) return false;
      const message = text.trim();
      const parentId = from.parentId;
      const isFirst = parentId === null;
      let prompt;
      try {
        prompt = await fetchDefaultPrompt(queryClient, currentWorkspaceId);
      } catch (error) {
        if (error instanceof NoDefaultPromptError) {
          if (isFirst) {
            toast({ ...NO_DEFAULT_PROMPT_TOAST, variant: 'destructive' });
            return false;
          }
        } else if (isFirst) {
          toast({
            title: 'Fout bij genereren',
            description: errorMessage(error),
            variant: 'destructive',
          });
          return false;
        }
      }
      const history = conversationHistory(from.messages);
      const answerId = messageId();
      setLastSend({ parentId });
      setMessages(() => [
        ...from.messages,
        {
          id: messageId(),
          role: 'user',
          content: message,
          attachments: attachments.map((file) => file.originalName),
        },
        { id: answerId, role: 'assistant', content: '', streaming: true },
      ]);
      const update = (patch: Partial<ScreenMessage>) =>
        setMessages((current) =>
          current.map((item) => (item.id === answerId ? { ...item, ...patch } : item)),
        );
      const controller = new AbortController();
      abortRef.current = controller;
      setGenerating(true);
      const attachmentIds = attachments.map((file) => file.id);
      const options = {
        signal: controller.signal,
        idempotencyKey: globalThis.crypto?.randomUUID?.(),
        onDelta: (_delta: string, full: string) => update({ content: full }),
      };
      try {
        const result = isFirst
          ? await generateText(
              '/api/generate',
              {
                promptId: prompt!.id,
                inputs: { message },
                language: CHAT_LANGUAGE,
                workspaceId: currentWorkspaceId,
                attachments: attachmentIds,
              },
              options,
            )
          : await generateText(
              '/api/generate-reply',
              {
                message,
                conversationHistory: history,
                model: replyModel(prompt?.model ?? recordModel),
                promptId: prompt?.id ?? null,
                workspaceId: currentWorkspaceId,
                parentContentId: parentId,
                attachments: attachmentIds,
              },
              options,
            );
        update({ content: result.result.text ?? '', streaming: false });
        if (result.content?.id) setParentId(result.content.id);
        void invalidateContents(queryClient);
        return true;
      } catch (error) {
        if (isAbort(error)) {
          update({ streaming: false, stopped: true });
          void invalidateContents(queryClient);
          return false;
        }
        setMessages((current) =>
          current.filter((item) => item.id !== answerId || item.content !== ''),
        );
        update({ streaming: false });
        toast({
          title: 'Fout bij genereren',
          description: errorMessage(error),
          variant: 'destructive',
        });
        return false;
      } finally {
        if (abortRef.current === controller) abortRef.current = null;
        setGenerating(false);
      }
    },
    [currentWorkspaceId, generating, messages, parentId, queryClient, recordModel],
  );

  /**
   * Asks again for the last answer: the last user message is sent once more from where it was
   * sent (same history and parent), and its new answer replaces the old one on the screen.
   */
  const regenerate = useCallback(async (): Promise<boolean> => {
    const lastUser = messages.findLastIndex((item) => item.role === 'user');
    const question = messages[lastUser];
    if (!question || !lastSend || generating) return false;
    return send(question.content, [], {
      messages: messages.slice(0, lastUser),
      parentId: lastSend.parentId,
    });
  }, [generating, lastSend, messages, send]);

  return {
    messages,
    mode,
    parentId,
    generating,
    loadingConversation,
    send,
    regenerate,
    /** Regenerate applies: the last answer was sent here (not loaded from history). */
    canRegenerate:
      lastSend !== null &&
      !generating &&
      mode !== 'viewing' &&
      messages.at(-1)?.role === 'assistant',
    stop,
    newChat,
    continueConversation,
    openFromHistory,
  };
}
