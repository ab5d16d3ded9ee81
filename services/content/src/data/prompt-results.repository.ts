import type { AppliedOps } from './layout';
import type { ContentCollections } from './collections';

// Template results (issue 18): per prompt and workspace, one document whose `_id` is
// `<workspace>:<prompt>` (collection `prompt_results`), kept as the contents made from the
// prompt are stored, reviewed and deleted (domain/derived.ts). Read by `_id` only, but for
// the workspace clean-up.

/** One version of the prompt: its runs, the approved ones, and what they cost. */
export interface VersionTally {
  version: number;
  runs: number;
  approved: number;
  /** Micro-units: the cost of the version's runs that carried one (deleted ones too). */
  costMicros: number;
  /** Runs that carried a cost (none: the cost is unknown). */
  costed: number;
}

/** One user's runs of the prompt (every version). */
export interface UserTally {
  userId: string;
  runs: number;
  approved: number;
}

export interface PromptResultsDoc {
  _id: string;
  workspaceId: number;
  promptId: string;
  versions: VersionTally[];
  users: UserTally[];
  /** The last operations applied (`+id`, `-id`, `r<n>:id`): a repeated one changes nothing. */
  applied: AppliedOps;
}

export const promptResultsId = (workspaceId: number, promptId: string) =>
  `${workspaceId}:${promptId}`;

export function createPromptResultsRepository(c: ContentCollections) {
  return {
    find: (workspaceId: number, promptId: string) =>
      c.promptResults.findOne({ _id: promptResultsId(workspaceId, promptId) }),

    save: (doc: PromptResultsDoc) => {
      const { _id: id, ...fields } = doc;
      return c.promptResults.replaceOne({ _id: id }, fields, { upsert: true });
    },

    deleteOfWorkspace: (workspaceId: number) => c.promptResults.deleteMany({ workspaceId }),
  };
}

export type PromptResultsRepository = ReturnType<typeof createPromptResultsRepository>;
