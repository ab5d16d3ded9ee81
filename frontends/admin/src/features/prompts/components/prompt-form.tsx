import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  CATEGORIES,
  CONTENT_TYPES,
  DEFAULT_CATEGORY,
  DEFAULT_MODEL_BY_CONTENT_TYPE,
  MODELS_BY_CONTENT_TYPE,
  type ContentType,
} from '@aict/contracts';
import {
  Button,
  FieldError,
  Input,
  Label,
  fieldErrors,
  Select,
  Textarea,
  useTranslation,
} from '@aict/web-kit';
import { usePromptLabels } from './category-badge';
import { TemplateVariables } from './template-variables';
import styles from './prompts.module.css';

/** What the form edits (SPEC §3 prompts, the fields a person sets). */
export interface PromptFormValues {
  name: string;
  description: string;
  template: string;
  category: string;
  contentType: ContentType;
  model: string;
  isPublic: boolean;
  isDefault: boolean;
}

/** A new prompt (SPEC §5): category Marketing, text on gpt-4o, not public, not default. */
export const EMPTY_PROMPT: PromptFormValues = {
  name: '',
  description: '',
  template: '',
  category: DEFAULT_CATEGORY,
  contentType: 'text',
  model: DEFAULT_MODEL_BY_CONTENT_TYPE.text,
  isPublic: false,
  isDefault: false,
};

type Field = keyof PromptFormValues;

type Issues = ReadonlyArray<{ path: PropertyKey[]; message: string }>;

/** What the form needs of a schema (a zod schema of @aict/contracts fits). */
export interface BodySchema<Body> {
  safeParse(
    input: unknown,
  ): { success: true; data: Body } | { success: false; error: { issues: Issues } };
}

/**
 * The prompt form of SPEC §2/§4/§5, for create and edit. The model list follows the content
 * type, and switching the type resets the model (gpt-4o, dall-e-3); the template's variables
 * show as it is typed. On submit the body (fields plus workspaceId) is checked with `schema`
 * (the contracts' CreatePromptBody or UpdatePromptBody: 'Name is required', …) and passed to
 * `onSubmit` when valid. `withTemplate: false` leaves the template out (a non-admin never
 * receives it); `withDefault` shows the default switch (super admins and workspace admins);
 * `withPublic` shows the 'Public' switch (super admins only: publishing reaches every workspace).
 */
export function PromptForm<Body>({
  initial = EMPTY_PROMPT,
  schema,
  workspaceId,
  withTemplate = true,
  withDefault,
  withPublic,
  pending,
  submitLabel,
  pendingLabel,
  onSubmit,
  cancel,
}: {
  initial?: PromptFormValues;
  schema: BodySchema<Body>;
  workspaceId: number | null;
  withTemplate?: boolean;
  withDefault: boolean;
  withPublic: boolean;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (body: Body) => void;
  /** The cancel control (a link back, or a button switching tabs). */
  cancel?: ReactNode;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitted, setSubmitted] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const { t } = useTranslation();
  const labels = usePromptLabels();
  const id = useId();
  const fieldId = (field: Field) => `${id}-${field}`;

  // After a refused submit, focus the first field in error.
  useEffect(() => {
    if (submitted === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [submitted]);

  const set = <K extends Field>(field: K, value: PromptFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };

  const setContentType = (contentType: ContentType) => {
    setValues((current) => ({
      ...current,
      contentType,
      model: DEFAULT_MODEL_BY_CONTENT_TYPE[contentType],
    }));
    setErrors((current) => ({ ...current, contentType: undefined, model: undefined }));
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const body: Record<string, unknown> = {
      name: values.name,
      description: values.description,
      category: values.category,
      contentType: values.contentType,
      model: values.model,
      isPublic: values.isPublic,
      workspaceId,
    };
    if (withTemplate) body.template = values.template;
    if (withDefault) body.isDefault = values.isDefault;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error.issues));
      setSubmitted((n) => n + 1);
      return;
    }
    setErrors({});
    onSubmit(parsed.data);
  };

  const models: readonly string[] = MODELS_BY_CONTENT_TYPE[values.contentType];
  const modelOptions =
    models.includes(values.model) || !values.model ? models : [values.model, ...models];

  const describedBy = (field: Field, ...more: string[]) =>
    [errors[field] && `${fieldId(field)}-error`, ...more].filter(Boolean).join(' ') || undefined;
  const invalid = (field: Field) => (errors[field] ? true : undefined);

  return (
    <form ref={formRef} className={styles.form} onSubmit={handleSubmit} noValidate>
      <div className={styles.field}>
        <Label htmlFor={fieldId('name')}>{t('admin.form.name')}</Label>
        <Input
          id={fieldId('name')}
          name="name"
          autoComplete="off"
          value={values.name}
          onChange={(event) => set('name', event.target.value)}
          aria-invalid={invalid('name')}
          aria-describedby={describedBy('name')}
          aria-required="true"
        />
        <FieldError id={`${fieldId('name')}-error`}>{errors.name}</FieldError>
      </div>

      <div className={styles.field}>
        <Label htmlFor={fieldId('description')}>{t('admin.form.description')}</Label>
        <Textarea
          id={fieldId('description')}
          name="description"
          rows={2}
          value={values.description}
          onChange={(event) => set('description', event.target.value)}
          aria-invalid={invalid('description')}
          aria-describedby={describedBy('description')}
        />
        <FieldError id={`${fieldId('description')}-error`}>{errors.description}</FieldError>
      </div>

      {withTemplate && (
        <div className={styles.field}>
          <Label htmlFor={fieldId('template')}>{t('admin.form.template')}</Label>
          <Textarea
            id={fieldId('template')}
            name="template"
            className={styles.template}
            rows={8}
            spellCheck={false}
            placeholder={t('admin.form.templatePlaceholder')}
            value={values.template}
            onChange={(event) => set('template', event.target.value)}
            aria-invalid={invalid('template')}
            aria-describedby={describedBy(
              'template',
              `${fieldId('template')}-hint`,
              `${fieldId('template')}-variables`,
            )}
            aria-required="true"
          />
          <FieldError id={`${fieldId('template')}-error`}>{errors.template}</FieldError>
          <p id={`${fieldId('template')}-hint`} className={styles.hint}>
            {t('admin.form.templateHintBefore')} <code>{'{topic}'}</code>
            {t('admin.form.templateHintMiddle')} <code>{'{{'}</code>{' '}
            {t('admin.form.templateHintAnd')} <code>{'}}'}</code>{' '}
            {t('admin.form.templateHintAfter')}
          </p>
          <TemplateVariables template={values.template} id={`${fieldId('template')}-variables`} />
        </div>
      )}

      <div className={styles.row}>
        <div className={styles.field}>
          <Label htmlFor={fieldId('category')}>{t('admin.form.category')}</Label>
          <Select
            id={fieldId('category')}
            name="category"
            value={values.category}
            onChange={(event) => set('category', event.target.value)}
            aria-invalid={invalid('category')}
            aria-describedby={describedBy('category')}
            aria-required="true"
          >
            <option value="">{t('admin.form.selectCategory')}</option>
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {labels.category(category)}
              </option>
            ))}
          </Select>
          <FieldError id={`${fieldId('category')}-error`}>{errors.category}</FieldError>
        </div>

        <div className={styles.field}>
          <Label htmlFor={fieldId('contentType')}>{t('admin.form.contentType')}</Label>
          <Select
            id={fieldId('contentType')}
            name="contentType"
            value={values.contentType}
            onChange={(event) => setContentType(event.target.value as ContentType)}
            aria-invalid={invalid('contentType')}
            aria-describedby={describedBy('contentType')}
          >
            {CONTENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {labels.contentType(type)}
              </option>
            ))}
          </Select>
          <FieldError id={`${fieldId('contentType')}-error`}>{errors.contentType}</FieldError>
        </div>

        <div className={styles.field}>
          <Label htmlFor={fieldId('model')}>{t('admin.form.model')}</Label>
          <Select
            id={fieldId('model')}
            name="model"
            value={values.model}
            onChange={(event) => set('model', event.target.value)}
            aria-invalid={invalid('model')}
            aria-describedby={describedBy('model')}
            aria-required="true"
          >
            <option value="">{t('admin.form.selectModel')}</option>
            {modelOptions.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </Select>
          <FieldError id={`${fieldId('model')}-error`}>{errors.model}</FieldError>
        </div>
      </div>

      <div className={styles.switches}>
        {withPublic && (
          <SwitchField
            id={fieldId('isPublic')}
            label={t('admin.form.public')}
            hint={t('admin.form.publicHint')}
            checked={values.isPublic}
            onChange={(checked) => set('isPublic', checked)}
          />
        )}
        {withDefault && (
          <SwitchField
            id={fieldId('isDefault')}
            label={t('admin.form.default')}
            hint={t('admin.form.defaultHint')}
            checked={values.isDefault}
            onChange={(checked) => set('isDefault', checked)}
          />
        )}
      </div>

      <div className={styles.formActions}>
        {cancel}
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** An on/off switch: a checkbox with the switch role, its label and a hint. */
function SwitchField({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className={styles.switchRow}>
      <div>
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className={styles.switch}
        checked={checked}
        aria-checked={checked}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}
