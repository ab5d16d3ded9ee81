import { Schema, type Connection, type Model } from 'mongoose';
import type { ApiTokenScope } from '@aict/contracts';
import { outboxPlugin } from '@aict/service-kit';

/**
 * A personal API token as stored. `_id` is the SHA-256 (hex) of the secret: the gateway's
 * lookup is one read by `_id`, and the secret itself is never stored. `tokenId` is the
 * public id its owner revokes it by. Never leaves the service as is: see
 * presenters/api-token.presenter.ts.
 */
export interface ApiTokenRecord {
  _id: string;
  tokenId: string;
  userId: string;
  workspaceId: number;
  name: string;
  scopes: ApiTokenScope[];
  /** The secret's first characters (`aict_AbCd`). */
  hint: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const apiTokenSchema = new Schema<ApiTokenRecord>(
  {
    _id: { type: String, required: true },
    tokenId: { type: String, required: true },
    userId: { type: String, required: true },
    workspaceId: { type: Number, required: true },
    name: { type: String, required: true },
    scopes: { type: [String], required: true },
    hint: { type: String, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    lastUsedAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
  },
  { collection: 'api_tokens', versionKey: false },
);
apiTokenSchema.plugin(outboxPlugin);
apiTokenSchema.index({ tokenId: 1 }, { unique: true });
apiTokenSchema.index({ userId: 1, createdAt: -1 });

export type ApiTokenModel = Model<ApiTokenRecord>;

export function apiTokenModel(connection: Connection): ApiTokenModel {
  return connection.model<ApiTokenRecord>('ApiToken', apiTokenSchema);
}
