import { i18n } from '@aict/web-kit';
// The browser's speech APIs, when present (SPEC §2: voice input and audio buttons). A button
// whose API is missing is not shown.

export interface SpeechRecognitionLike {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  onresult:
    | ((event: {
        resultIndex: number;
        results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
      }) => void)
    | null;
  onend: (() => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  start(): void;
  stop(): void;
}

type RecognitionConstructor = new () => SpeechRecognitionLike;

/** The SpeechRecognition constructor (standard or webkit-prefixed), or null. */
export function speechRecognition(): RecognitionConstructor | null {
  if (typeof window === 'undefined') return null;
  const scope = window as unknown as Record<string, RecognitionConstructor | undefined>;
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition ?? null;
}

/** speechSynthesis with SpeechSynthesisUtterance, or null. */
export function speechSynthesisApi(): SpeechSynthesis | null {
  if (typeof window === 'undefined') return null;
  return 'speechSynthesis' in window && typeof window.SpeechSynthesisUtterance === 'function'
    ? window.speechSynthesis
    : null;
}

/** Markdown as plain words for reading aloud. */
export function speakableText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_`>~|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// Plain sentences for the SpeechRecognition error codes (the raw code means nothing to a user).
const SPEECH_ERRORS = {
  'not-allowed': 'chat.speech.notAllowed',
  'service-not-allowed': 'chat.speech.serviceNotAllowed',
  'audio-capture': 'chat.speech.audioCapture',
  network: 'chat.speech.network',
  'language-not-supported': 'chat.speech.languageNotSupported',
} as const;

/** A voice-input error (SpeechRecognition `error` code) as a sentence in the chosen language. */
export function speechErrorMessage(code: string): string {
  const key = SPEECH_ERRORS[code as keyof typeof SPEECH_ERRORS] ?? 'chat.speech.fallback';
  return i18n.t(key);
}
