// Content (history, threads, stats): hooks over the content routes and their display rules.
export {
  contentItems,
  deleteContent,
  fetchContentsPage,
  fetchConversation,
  invalidateContents,
  useContent,
  useContentsInfinite,
  useConversation,
  useDeleteContent,
  reviewContent,
  useReviewContent,
  type ReviewChange,
  useStats,
  type ContentsFilter,
} from './content-queries';
export {
  generatedImageFileName,
  groupConversations,
  historyPreview,
  historyTitle,
  imageDownloadName,
  parseMetadata,
  rebuildConversation,
  relativeTime,
  turnsLabel,
  type ConversationRow,
} from './content-rules';
export {
  ContinueRecordError,
  readContinueRecord,
  removeContinueRecord,
  toContinueRecord,
  writeContinueRecord,
} from './continue-record';
export { downloadFile, saveBlob } from './download';
export {
  dispositionFileName,
  downloadExport,
  ExportButtons,
  exportUrl,
  VoiceFlagsBadge,
  type ExportButtonsProps,
  type ExportFormat,
} from './content-export';
export { ImageDialog, type ImageDialogProps } from './image-dialog';
export {
  REVIEW_STATE_ORDER,
  ReviewActions,
  ReviewBadge,
  ReviewFilter,
  ReviewStateCounts,
  type ReviewFilterProps,
} from './content-review';
