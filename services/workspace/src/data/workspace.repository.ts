import type { Envelope } from '@aict/service-kit';
import { live, notDeleted, outboxDelete, outboxInsert, outboxUpdate } from '@aict/service-kit';
import type { NameClaimRecord, WorkspaceModels, WorkspaceRecord } from './workspace.model';

const COUNTER_ID = 'workspace';

function isDuplicateKey(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 11000 || code === 11001;
}

/** A raw document as the repository returns it: without the outbox's own fields. */
export function withoutOutbox<T>(doc: object): T {
  const { _outbox: _events, _deletedAt: _tombstone, ...rest } = doc as Record<string, unknown>;
  return rest as T;
}

export type WorkspaceChanges = {
  set?: Partial<Omit<WorkspaceRecord, '_id' | 'createdAt'>>;
  unset?: Array<'description' | 'logo'>;
};

export function createWorkspaceRepository({
  Workspace,
  NameClaim,
  WorkspaceId,
  Counter,
}: WorkspaceModels) {
  /** Raises the counter (a hint of the last id handed out; a race may leave it lower). */
  async function raiseCounter(id: number): Promise<void> {
    await Counter.updateOne({ _id: COUNTER_ID }, { $max: { seq: id } }, { upsert: true }).catch(
      (err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
      },
    );
  }

  return {
    /**
     * The next workspace id, never handed out twice: each id is claimed by inserting it
     * (`$inc` on a counter loses increments under concurrency on FerretDB v1). The counter
     * only says where to start looking. Ids may have gaps.
     */
    async nextId(): Promise<number> {
      const counter = await Counter.findById(COUNTER_ID).lean();
      for (let candidate = (counter?.seq ?? 0) + 1; ; candidate++) {
        try {
          await WorkspaceId.collection.insertOne({
            _id: candidate,
            allocatedAt: new Date(),
          } as never);
        } catch (err) {
          if (isDuplicateKey(err)) continue;
          throw err;
        }
        await raiseCounter(candidate);
        return candidate;
      }
    },

    /** Marks `id` as handed out (workspace 1). */
    async reserveId(id: number): Promise<void> {
      try {
        await WorkspaceId.collection.insertOne({ _id: id, allocatedAt: new Date() } as never);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      await raiseCounter(id);
    },

    async findById(id: number): Promise<WorkspaceRecord | null> {
      return live(await Workspace.findById(id).lean<WorkspaceRecord>());
    },

    /** Several workspaces, each read by `_id` (in parallel), in the order of `ids`; missing ones left out. */
    async findByIds(ids: readonly number[]): Promise<WorkspaceRecord[]> {
      const found = await Promise.all(ids.map((id) => this.findById(id)));
      return found.filter((w): w is WorkspaceRecord => w !== null);
    },

    async listAll(): Promise<WorkspaceRecord[]> {
      return Workspace.find(notDeleted({})).sort({ _id: 1 }).lean<WorkspaceRecord[]>();
    },

    async insert(record: WorkspaceRecord, events: Envelope[]): Promise<void> {
      await Workspace.collection.insertOne(outboxInsert(record, events) as never);
    },

    /** Inserts the workspace unless it exists; true when it was inserted now. */
    async insertIfMissing(record: WorkspaceRecord, events: Envelope[]): Promise<boolean> {
      try {
        const result = await Workspace.collection.updateOne(
          { _id: record._id } as never,
          { $setOnInsert: outboxInsert(record, events) } as never,
          { upsert: true },
        );
        return result.upsertedCount === 1;
      } catch (err) {
        if (isDuplicateKey(err)) return false; // another instance inserted it meanwhile
        throw err;
      }
    },

    /** Applies the changes with their events; the workspace after, or null when there is none. */
    async update(
      id: number,
      changes: WorkspaceChanges,
      events: Envelope[],
      returnDocument: 'before' | 'after' = 'after',
    ): Promise<WorkspaceRecord | null> {
      const update: Record<string, unknown> = {};
      if (changes.set) update.$set = changes.set;
      if (changes.unset?.length)
        update.$unset = Object.fromEntries(changes.unset.map((field) => [field, '']));
      // The driver's own call: FerretDB v1 refuses a projection on findAndModify (mongoose
      // would send one to hide `_outbox`).
      const doc = await Workspace.collection.findOneAndUpdate(
        notDeleted({ _id: id }) as never,
        outboxUpdate(update, events) as never,
        { returnDocument },
      );
      return doc ? withoutOutbox<WorkspaceRecord>(doc) : null;
    },

    /** Marks the workspace deleted with its events (the outbox relay removes it for good). */
    async markDeleted(id: number, events: Envelope[]): Promise<boolean> {
      const result = await Workspace.updateOne(notDeleted({ _id: id }), outboxDelete(events));
      return result.matchedCount === 1;
    },

    // Name claims -----------------------------------------------------------------------

    /** Claims a name key; false when someone holds it. */
    async claimName(key: string, workspaceId: number): Promise<boolean> {
      try {
        await NameClaim.collection.insertOne({
          _id: key,
          workspaceId,
          claimedAt: new Date(),
        } as never);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },

    async readClaim(key: string): Promise<NameClaimRecord | null> {
      return NameClaim.findById(key).lean<NameClaimRecord>();
    },

    /** Takes a stale claim over, if nobody changed it since it was read. */
    async takeOverClaim(stale: NameClaimRecord, workspaceId: number): Promise<boolean> {
      const result = await NameClaim.updateOne(
        { _id: stale._id, workspaceId: stale.workspaceId, claimedAt: stale.claimedAt },
        { $set: { workspaceId, claimedAt: new Date() } },
      );
      return result.modifiedCount === 1;
    },

    async releaseClaim(key: string, workspaceId: number): Promise<void> {
      await NameClaim.deleteOne({ _id: key, workspaceId });
    },

    /** Every claim a (deleted) workspace still holds. */
    async releaseClaimsOf(workspaceId: number): Promise<void> {
      await NameClaim.deleteMany({ workspaceId });
    },
  };
}

export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;
