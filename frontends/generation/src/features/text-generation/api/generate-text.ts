import type { ChatMessage, TemplateInputs } from '@aict/contracts';
import { generateText, type GenerateTextOptions, type GenerationResult } from '@aict/web-kit';

/** POST /api/generate (streamed): the first answer of a thread from a prompt and its inputs. */
export function generateContent(
  body: {
    promptId: string;
    inputs: TemplateInputs;
    model?: string;
    language: string;
    workspaceId: number | null;
  },
  options: GenerateTextOptions,
): Promise<GenerationResult> {
  return generateText('/api/generate', body, options);
}

/** POST /api/generate-reply (streamed): the next answer, with the thread so far. */
export function generateReply(
  body: {
    message: string;
    conversationHistory: ChatMessage[];
    model: string;
    promptId: string | null;
    workspaceId: number | null;
    parentContentId: string | null;
  },
  options: GenerateTextOptions,
): Promise<GenerationResult> {
  return generateText('/api/generate-reply', body, options);
}
