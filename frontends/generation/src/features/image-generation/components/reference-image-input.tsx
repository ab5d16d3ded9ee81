import { useEffect, useId, useRef, useState } from 'react';
import { Button, Label, toast, useTranslation, TrashIcon, UploadIcon } from '@aict/web-kit';
import styles from '../../../lib/generation.module.css';

/** The uploader for a template's {file}: image files only (SPEC §5). */
export function ReferenceImageInput({
  file,
  onChange,
  required,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  required: boolean;
}) {
  const id = useId();
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function pick(files: FileList | null) {
    const chosen = files?.[0];
    if (input.current) input.current.value = '';
    if (!chosen) return;
    if (!chosen.type.startsWith('image/')) {
      toast({
        title: t('generation.invalidFile'),
        description: t('generation.invalidFileText'),
        variant: 'destructive',
      });
      return;
    }
    onChange(chosen);
  }

  return (
    <div className={styles.field}>
      <Label htmlFor={id}>Reference image{required ? '' : ' (optional)'}</Label>
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/*"
        className="wk-sr-only"
        onChange={(event) => pick(event.target.files)}
      />
      <div className={styles.actions}>
        <Button variant="outline" onClick={() => input.current?.click()}>
          <UploadIcon />
          {file ? t('generation.replaceImage') : t('generation.uploadImage')}
        </Button>
        {file && (
          <>
            {preview && (
              <img
                src={preview}
                alt={t('generation.referencePreview')}
                className={styles.preview}
              />
            )}
            <span className={styles.muted}>{file.name}</span>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t('generation.removeReference')}
              onClick={() => onChange(null)}
            >
              <TrashIcon />
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
