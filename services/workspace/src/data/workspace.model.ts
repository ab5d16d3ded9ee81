import { Schema, type Connection, type Model } from 'mongoose';
import { outboxPlugin } from '@aict/service-kit';

export interface LogoRecord {
  /** The MinIO key, chosen by the server: `workspaces/<id>/logo/<uuid>.<ext>`. */
  key: string;
  contentType: string;
  /** Changes with every upload (cache busting in the logo URL). */
  version: string;
  size: number;
}

export interface WorkspaceRecord {
  _id: number;
  name: string;
  /** The lower-cased name: the `_id` of its name claim. */
  nameKey: string;
  slug: string;
  description?: string;
  logo?: LogoRecord;
  createdAt: Date;
  updatedAt: Date;
}

/** A name taken: `_id` is the name key, so uniqueness holds without transactions. */
export interface NameClaimRecord {
  _id: string;
  workspaceId: number;
  claimedAt: Date;
}

/** An id handed out: inserting `_id` is the one write both engines make atomic. */
export interface WorkspaceIdRecord {
  _id: number;
  allocatedAt: Date;
}

export interface CounterRecord {
  _id: string;
  seq: number;
}

const logoSchema = new Schema<LogoRecord>(
  {
    key: { type: String, required: true },
    contentType: { type: String, required: true },
    version: { type: String, required: true },
    size: { type: Number, required: true },
  },
  { _id: false },
);

const workspaceSchema = new Schema<WorkspaceRecord>(
  {
    _id: { type: Number, required: true },
    name: { type: String, required: true },
    nameKey: { type: String, required: true },
    slug: { type: String, required: true },
    description: { type: String },
    logo: { type: logoSchema, default: undefined },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
workspaceSchema.plugin(outboxPlugin);

const nameClaimSchema = new Schema<NameClaimRecord>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: Number, required: true },
    claimedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

const workspaceIdSchema = new Schema<WorkspaceIdRecord>(
  { _id: { type: Number, required: true }, allocatedAt: { type: Date, required: true } },
  { versionKey: false },
);

const counterSchema = new Schema<CounterRecord>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true } },
  { versionKey: false },
);

export interface WorkspaceModels {
  Workspace: Model<WorkspaceRecord>;
  NameClaim: Model<NameClaimRecord>;
  WorkspaceId: Model<WorkspaceIdRecord>;
  Counter: Model<CounterRecord>;
}

export function workspaceModels(conn: Connection): WorkspaceModels {
  return {
    Workspace: conn.model<WorkspaceRecord>('Workspace', workspaceSchema, 'workspaces'),
    NameClaim: conn.model<NameClaimRecord>(
      'WorkspaceNameClaim',
      nameClaimSchema,
      'workspace_names',
    ),
    WorkspaceId: conn.model<WorkspaceIdRecord>('WorkspaceId', workspaceIdSchema, 'workspace_ids'),
    Counter: conn.model<CounterRecord>('Counter', counterSchema, 'counters'),
  };
}
