import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One counted attempt of a rate-limit bucket: `_id` = `<bucket key>|<window>|<slot>`, slot in
 * [0, max). A bucket is full when all its slots of the current window exist. Slots are taken
 * by insert (a unique `_id`: atomic on MongoDB and on FerretDB v1, across replicas) and given
 * back by delete, so no counter is ever updated in place.
 */
export interface AttemptSlotRecord {
  _id: string;
  /** The end of the slot's window: the slot is purged after it. */
  expiresAt: Date;
}

const attemptSlotSchema = new Schema<AttemptSlotRecord>(
  {
    _id: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'rate_limit_slots', versionKey: false },
);
attemptSlotSchema.index({ expiresAt: 1 });

export type AttemptSlotModel = Model<AttemptSlotRecord>;

export function attemptSlotModel(connection: Connection): AttemptSlotModel {
  return connection.model<AttemptSlotRecord>('AttemptSlot', attemptSlotSchema);
}
