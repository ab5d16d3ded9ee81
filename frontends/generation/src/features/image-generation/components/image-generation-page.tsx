import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_CONTENT_LANGUAGE,
  DEFAULT_IMAGE_MODEL,
  FILE_VARIABLE,
  GPT_IMAGE_MODEL,
  IMAGE_MODELS,
  LANGUAGE_VARIABLE,
  type PromptSummary,
} from '@aict/contracts';
import {
  Badge,
  Button,
  Card,
  CardContent,
  Page,
  downloadFile,
  errorMessage,
  generatedImageFileName,
  invalidateContents,
  saveBlob,
  toast,
  useWorkspace,
  useTranslation,
  DownloadIcon,
} from '@aict/web-kit';
import { ModelPicker } from '../../../lib/model-picker';
import { PromptPicker } from '../../../lib/prompt-picker';
import { usePrompts } from '@aict/web-kit';
import { VariableInputs } from '../../../lib/variable-inputs';
import styles from '../../../lib/generation.module.css';
import { generateImage, generateImageWithFile } from '../api/generate-image';
import { ReferenceImageInput } from './reference-image-input';

/** The image from its base64 data (a data: URL may not be fetched under the CSP). */
function base64Blob(b64: string, type: string): Blob {
  const bytes = Uint8Array.from(atob(b64), (char) => char.charCodeAt(0));
  return new Blob([bytes], { type });
}

interface ImageResult {
  contentId: string;
  src: string;
  model: string;
  /** gpt-image-1: marked GPT-Image, its base64 data kept (SPEC §4). */
  isGptImage: boolean;
  b64?: string;
}

/** The inputs a "Run again" link carries (JSON of name → value), or null when absent or bad. */
function prefillOf(
  json: string | null,
  promptId: string | null,
): { for: string | null; inputs: Record<string, string> } | null {
  if (!json) return null;
  try {
    const parsed: unknown = JSON.parse(json);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const inputs = Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
    return { for: promptId, inputs };
  } catch {
    return null;
  }
}

/** /image-generation (SPEC §2, §4, §5): a prompt, its variables, an optional reference image. */
export function ImageGenerationPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { currentWorkspaceId, isAdmin } = useWorkspace();
  const queryClient = useQueryClient();
  const prompts = usePrompts(currentWorkspaceId, 'image');
  const selectedId = params.get('promptId');
  const selected = prompts.data?.find((prompt) => prompt.id === selectedId) ?? null;

  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [language, setLanguage] = useState<string>(DEFAULT_CONTENT_LANGUAGE);
  const [model, setModel] = useState<string>(DEFAULT_IMAGE_MODEL);
  const [file, setFile] = useState<File | null>(null);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<ImageResult | null>(null);
  const resultRef = useRef<HTMLElement>(null);

  // "Run again" from the gallery (issue 18): ?inputs= fills the form of that prompt once.
  const [prefill, setPrefill] = useState(() =>
    prefillOf(params.get('inputs'), params.get('promptId')),
  );
  const selectedModel = selected?.model;
  useEffect(() => {
    if (!selectedId || !selectedModel) return;
    setModel(selectedModel);
    const carried = prefill?.for === selectedId ? prefill.inputs : null;
    setInputs(carried ?? {});
    if (carried?.[LANGUAGE_VARIABLE]) setLanguage(carried[LANGUAGE_VARIABLE]);
    if (prefill) setPrefill(null);
    setFile(null);
    setResult(null); // the previous prompt's image does not belong to this one
  }, [selectedId, selectedModel]);

  // A new image shows below the form: bring it into view (again once the image has loaded
  // and the page has its full height).
  const showResult = () =>
    resultRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  useEffect(() => {
    if (result) showResult();
  }, [result]);

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

  const effectiveModel = isAdmin ? model : (selected?.model ?? DEFAULT_IMAGE_MODEL);
  const hasFile = selected?.variables.includes(FILE_VARIABLE) ?? false;

  async function generate() {
    if (pending) return;
    if (!selected) {
      toast({ title: t('generation.selectPrompt'), variant: 'destructive' });
      return;
    }
    const filled: Record<string, string> = {};
    for (const name of selected.variables) {
      if (name === FILE_VARIABLE) continue;
      filled[name] = name === LANGUAGE_VARIABLE ? language : (inputs[name] ?? '').trim();
    }
    const missing = Object.entries(filled)
      .filter(([, value]) => value === '')
      .map(([name]) => name);
    if (missing.length > 0) {
      toast({
        title: t('generation.missingInfo'),
        description: t('generation.missingInfoText', { fields: missing.join(', ') }),
        variant: 'destructive',
      });
      return;
    }
    if (hasFile && effectiveModel === GPT_IMAGE_MODEL && !file) {
      toast({
        title: t('generation.missingFile'),
        description: t('generation.missingFileText'),
        variant: 'destructive',
      });
      return;
    }
    setPending(true);
    try {
      const answer = file
        ? await generateImageWithFile({
            promptId: selected.id,
            model: effectiveModel,
            file,
            inputs: filled,
            workspaceId: currentWorkspaceId,
          })
        : await generateImage({
            promptId: selected.id,
            inputs: filled,
            ...(isAdmin ? { model } : {}),
            workspaceId: currentWorkspaceId,
          });
      const isGptImage = effectiveModel === GPT_IMAGE_MODEL;
      const b64 = isGptImage ? answer.result.b64_json : undefined;
      setResult({
        contentId: answer.content.id,
        src: b64 ? `data:image/png;base64,${b64}` : (answer.result.imageUrl ?? ''),
        model: effectiveModel,
        isGptImage,
        b64,
      });
      toast({ title: t('generation.contentGenerated'), variant: 'success' });
      void invalidateContents(queryClient);
    } catch (error) {
      toast({
        title: file ? t('generation.imageWithFileFailed') : t('generation.imageFailed'),
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  }

  async function download() {
    if (!result) return;
    try {
      const name = generatedImageFileName(result.model);
      if (result.b64) saveBlob(base64Blob(result.b64, 'image/png'), name);
      else await downloadFile(result.src, name);
    } catch (error) {
      console.error('Image download failed', error);
      toast({ title: t('generation.downloadFailed'), variant: 'destructive' });
    }
  }

  return (
    <Page title={t('generation.imageTitle')} description={t('generation.imageDescription')}>
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
              <>
                <VariableInputs
                  variables={selected.variables}
                  inputs={inputs}
                  onInputChange={(name, value) => setInputs((all) => ({ ...all, [name]: value }))}
                  language={language}
                  onLanguageChange={setLanguage}
                  onSubmit={() => void generate()}
                />
                {hasFile && (
                  <ReferenceImageInput
                    file={file}
                    onChange={setFile}
                    required={effectiveModel === GPT_IMAGE_MODEL}
                  />
                )}
              </>
            ) : (
              <p className={styles.muted}>{t('generation.selectPromptHint')}</p>
            )}
            {isAdmin && (
              <div className={styles.fields}>
                <ModelPicker models={IMAGE_MODELS} value={model} onChange={setModel} />
              </div>
            )}
            <div className={styles.actions}>
              <Button onClick={() => void generate()} disabled={pending}>
                {pending ? t('generation.generating') : t('generation.generateImage')}
              </Button>
            </div>
          </CardContent>
        </Card>
        {result ? (
          <section
            ref={resultRef}
            className={styles.section}
            aria-label={t('generation.generatedImage')}
          >
            <div className={styles.sectionHeader}>
              <h2 className={styles.sectionTitle}>{t('generation.result')}</h2>
              <div className={styles.actions}>
                <Badge variant="secondary">{result.isGptImage ? 'GPT-Image' : result.model}</Badge>
                <Button variant="outline" size="sm" onClick={() => void download()}>
                  <DownloadIcon />
                  {t('generation.downloadImage')}
                </Button>
              </div>
            </div>
            <img
              src={result.src}
              alt={`Generated with ${selected?.name ?? 'the prompt'}`}
              className={styles.resultImage}
              onLoad={showResult}
            />
          </section>
        ) : (
          <p className={styles.outputPlaceholder}>{t('generation.imageOutputPlaceholder')}</p>
        )}
      </div>
    </Page>
  );
}
