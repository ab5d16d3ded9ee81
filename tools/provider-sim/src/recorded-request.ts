import type { FailMode } from './sim-config';

/** One content part of a chat message, as the simulator received it (bytes, never the data). */
export type PartSummary =
  | { type: 'text'; chars: number }
  | {
      type: 'image_url';
      source: 'data' | 'http';
      /** data: URLs: the declared media type and the decoded size. */
      mediaType?: string;
      bytes?: number;
      /** http(s) URLs: the URL itself. */
      url?: string;
      detail?: string;
    }
  | { type: 'file'; filename?: string; mediaType?: string; bytes?: number; fileId?: string }
  | { type: string };

export interface MessageSummary {
  role: string;
  /** All text of the message (string content, or its text parts joined by a newline). */
  text: string;
  parts: PartSummary[];
}

export interface ChatSummary {
  messages: MessageSummary[];
  lastUserText: string;
  imageCount: number;
  fileCount: number;
  maxTokens?: number;
  includeUsage: boolean;
}

/** A file received in a multipart request (images.edit). */
export interface ReceivedFile {
  field: string;
  filename: string;
  /** Content-Type the client declared for the part. */
  mimeType: string;
  bytes: number;
  /** Format found in the bytes themselves ('png', 'jpeg', 'gif', 'webp') or null. */
  detectedFormat: string | null;
  width?: number;
  height?: number;
}

export interface ImageRequestSummary {
  prompt?: string;
  n?: number;
  size?: string;
  quality?: string;
  style?: string;
  responseFormat?: string;
  files: ReceivedFile[];
}

export interface RecordedRequest {
  /** Increasing number, 1 for the first request after a reset. */
  seq: number;
  /** Also sent back as the x-request-id response header. */
  requestId: string;
  method: string;
  path: string;
  query: Record<string, string>;
  receivedAt: string;
  /** Request headers without authorization (and cookies). */
  headers: Record<string, string>;
  /** 'sk-…abcd': enough to tell keys apart, never the key. */
  apiKeyHint: string | null;
  model?: string;
  stream: boolean;
  chat?: ChatSummary;
  image?: ImageRequestSummary;
  /** The failure rule that applied, if any. */
  failure?: FailMode;
  status?: number;
  /** The answer text (chat) and tokens/chunks actually sent. */
  output?: {
    text?: string;
    completionTokens?: number;
    promptTokens?: number;
    chunksSent?: number;
    imageIds?: string[];
  };
  /** Milliseconds after the request (with its body) arrived. */
  timings: { headersSentMs?: number; firstTokenMs?: number; endedMs?: number };
  /** The response finished normally. */
  completed: boolean;
  /** The client went away before the response finished (abort, timeout). */
  aborted: boolean;
  /** The simulator cut the connection on purpose (truncated_stream). */
  truncated: boolean;
  /**
   * The TCP connection that carried the request is still open (false once it closed, from
   * either side): a client that gives up must not leave its socket behind.
   */
  connectionOpen: boolean;
}

export interface RequestFilter {
  path?: string;
  model?: string;
  /** Only requests made with this exact API key. */
  apiKey?: string;
}
