import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_CONTENT_LANGUAGE,
  DEFAULT_TEXT_MODEL,
  TEXT_MODELS,
  type ChatMessage,
  type ContentItem,
  type PromptSummary,
} from '@aict/contracts';
import {
  Button,
  Card,
  CardContent,
  Page,
  errorMessage,
  fetchConversation,
  invalidateContents,
  parseMetadata,
  readContinueRecord,
  rebuildConversation,
  removeContinueRecord,
  toast,
  useWorkspace,
  useTranslation,
  StopIcon,
} from '@aict/web-kit';
import { ModelPicker } from '../../../lib/model-picker';
import { PromptPicker } from '../../../lib/prompt-picker';
import { usePrompts } from '@aict/web-kit';
import { VariableInputs } from '../../../lib/variable-inputs';
import styles from '../../../lib/generation.module.css';
import { generateContent, generateReply } from '../api/generate-text';
import { Thread } from './thread';

const isTextModel = (model: string) => (TEXT_MODELS as readonly string[]).includes(model);
const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** The first item's original inputs as the first user message (continue mode, SPEC §4). */
function inputsMessage(inputs: Record<string, string> | undefined): string {
  return Object.entries(inputs ?? {})
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function threadMessages(items: readonly ContentItem[]): ChatMessage[] {
  const messages = rebuildConversation(items);
  const first = items[0] && parseMetadata(items[0].metadata);
  if (first && !first.inputs?.message) {
    const asked = inputsMessage(first.inputs);
    if (asked) messages.unshift({ role: 'user', content: asked });
  }
  return messages;
}

/** /text-generation (SPEC §2, §4): a prompt, its variables, then a thread refined by replies. */
export function TextGenerationPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const continuing = params.get('continue') === 'true';
  const { currentWorkspaceId, isAdmin } = useWorkspace();
  const queryClient = useQueryClient();
  const prompts = usePrompts(currentWorkspaceId, 'text');

  const selectedId = params.get('promptId');
  const selected = prompts.data?.find((prompt) => prompt.id === selectedId) ?? null;
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [language, setLanguage] = useState<string>(DEFAULT_CONTENT_LANGUAGE);
  const [model, setModel] = useState<string>(DEFAULT_TEXT_MODEL);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [parentId, setParentId] = useState<string | null>(null);
  const [streaming, setStreaming] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  /** Inputs restored by continue mode, applied when their prompt is selected. */
  const restored = useRef<{ inputs: Record<string, string>; model: string } | null>(null);

  // Selecting a prompt sets the model to the prompt's model (SPEC §4) and fresh inputs.
  const selectedModel = selected?.model;
  useEffect(() => {
    if (!selectedId || !selectedModel) return;
    setModel(restored.current?.model ?? selectedModel);
    setInputs(restored.current?.inputs ?? {});
    restored.current = null;
  }, [selectedId, selectedModel]);

  // Continue mode (SPEC §4): rebuild the saved thread once, then forget the record.
  const continued = useRef(false);
  useEffect(() => {
    if (!continuing || continued.current) return;
    continued.current = true;
    let record;
    try {
      record = readContinueRecord();
    } catch {
      toast({
        title: t('generation.loadConversationFailed'),
        description: t('generation.loadConversationFailedText'),
        variant: 'destructive',
      });
      removeContinueRecord();
      return;
    }
    if (!record) return;
    const saved = record;
    const inputsOf = saved.metadata.inputs ?? {};
    restored.current = { inputs: { ...inputsOf }, model: saved.model };
    if (inputsOf.language) setLanguage(inputsOf.language);
    setModel(saved.model);
    if (saved.promptId) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('promptId', saved.promptId!);
          return next;
        },
        { replace: true },
      );
    } else {
      setInputs({ ...inputsOf });
    }
    fetchConversation(saved.contentId)
      .then((items) => {
        if (items.length === 0) throw new Error('Empty thread');
        setMessages(threadMessages(items));
        setParentId(items[items.length - 1]!.id);
      })
      .catch(() => {
        setMessages([{ role: 'assistant', content: saved.initialContent }]);
        setParentId(saved.contentId);
      })
      .finally(() => removeContinueRecord());
  }, [continuing, setParams]);

  useEffect(() => () => controller.current?.abort(), []);

  function select(prompt: PromptSummary) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('promptId', prompt.id);
        return next;
      },
      { replace: true },
    );
  }

  async function run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setStreaming('');
    try {
      return await work(abort.signal);
    } finally {
      if (controller.current === abort) controller.current = null;
      setStreaming(null);
    }
  }

  const onDelta = (_: string, full: string) => setStreaming(full);
  const stop = () => controller.current?.abort();

  async function generate() {
    if (controller.current) return; // already generating
    if (!selected) {
      toast({ title: t('generation.selectPrompt'), variant: 'destructive' });
      return;
    }
    const filled = { ...inputs };
    if (selected.variables.includes('language')) filled.language = language;
    try {
      const answer = await run((signal) =>
        generateContent(
          {
            promptId: selected.id,
            inputs: filled,
            ...(isAdmin ? { model } : {}),
            language,
            workspaceId: currentWorkspaceId,
          },
          { signal, onDelta },
        ),
      );
      setMessages([{ role: 'assistant', content: answer.result.text ?? '' }]);
      setParentId(answer.content.id);
      toast({ title: t('generation.contentGenerated'), variant: 'success' });
      void invalidateContents(queryClient);
    } catch (error) {
      if (isAbort(error)) return;
      toast({
        title: t('generation.generateFailed'),
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  }

  async function reply(text: string): Promise<boolean> {
    const message = text.trim();
    if (!message) {
      toast({ title: t('generation.enterMessage'), variant: 'destructive' });
      return false;
    }
    const history = messages;
    setMessages([...history, { role: 'user', content: message }]);
    const replyModel = isAdmin || !selected ? model : selected.model;
    try {
      const answer = await run((signal) =>
        generateReply(
          {
            message,
            conversationHistory: history,
            model: isTextModel(replyModel) ? replyModel : DEFAULT_TEXT_MODEL,
            promptId: selected?.id ?? null,
            workspaceId: currentWorkspaceId,
            parentContentId: parentId,
          },
          { signal, onDelta },
        ),
      );
      setMessages([
        ...history,
        { role: 'user', content: message },
        { role: 'assistant', content: answer.result.text ?? '' },
      ]);
      setParentId(answer.content.id);
      toast({ title: t('generation.replyGenerated'), variant: 'success' });
      void invalidateContents(queryClient);
      return true;
    } catch (error) {
      setMessages(history);
      if (isAbort(error)) return false;
      toast({
        title: t('generation.replyFailed'),
        description: errorMessage(error),
        variant: 'destructive',
      });
      return false;
    }
  }

  const generating = streaming !== null;
  const threadStarted = messages.length > 0;

  return (
    <Page
      title={continuing ? t('generation.continueTitle') : t('generation.textTitle')}
      description={t('generation.textDescription')}
    >
      <PromptPicker
        prompts={prompts.data}
        isPending={currentWorkspaceId !== null && prompts.isPending}
        isError={prompts.isError}
        onRetry={() => void prompts.refetch()}
        selectedId={selectedId}
        onSelect={select}
      />
      {/* inputs and output side by side from 1024 px (generation.module.css .split) */}
      <div className={styles.split}>
        <Card className={styles.section}>
          <CardContent className={styles.section}>
            <h2 className={styles.sectionTitle}>
              {selected
                ? t('generation.inputsFor', { name: selected.name })
                : t('generation.inputs')}
            </h2>
            {selected ? (
              <VariableInputs
                variables={selected.variables}
                inputs={inputs}
                onInputChange={(name, value) => setInputs((all) => ({ ...all, [name]: value }))}
                language={language}
                onLanguageChange={setLanguage}
                onSubmit={() => void generate()}
              />
            ) : (
              <p className={styles.muted}>{t('generation.selectPromptHint')}</p>
            )}
            {isAdmin && (
              <div className={styles.fields}>
                <ModelPicker models={TEXT_MODELS} value={model} onChange={setModel} />
              </div>
            )}
            <div className={styles.actions}>
              <Button onClick={() => void generate()} disabled={generating}>
                {generating && !threadStarted
                  ? t('generation.generating')
                  : t('generation.generateText')}
              </Button>
              {generating && (
                <Button variant="outline" onClick={stop}>
                  <StopIcon />
                  {t('generation.stop')}
                </Button>
              )}
            </div>
          </CardContent>
        </Card>
        {threadStarted || generating ? (
          <Thread messages={messages} streaming={streaming} onReply={reply} onStop={stop} />
        ) : (
          <p className={styles.outputPlaceholder}>{t('generation.textOutputPlaceholder')}</p>
        )}
      </div>
    </Page>
  );
}
