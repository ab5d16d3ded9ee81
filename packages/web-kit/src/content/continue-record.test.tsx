import { ContinueRecord } from '@aict/contracts';
import {
  ContinueRecordError,
  readContinueRecord,
  removeContinueRecord,
  toContinueRecord,
  writeContinueRecord,
} from './continue-record';

const KEY = 'continueConversation';
const record = {
  contentId: 'c1',
  contentTitle: 'Launch post',
  initialContent: 'The first answer',
  model: 'gpt-4o',
  promptId: 'p1',
  workspaceId: 1,
  metadata: { inputs: { product: 'Shoes' } },
};

beforeEach(() => sessionStorage.clear());

describe('the continue-conversation record', () => {
  it('when a record is written, then it is read back from session storage and can be removed', () => {
    writeContinueRecord(record);
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual(record);
    expect(readContinueRecord()).toEqual(record);
    removeContinueRecord();
    expect(readContinueRecord()).toBeNull();
  });

  it('when nothing is stored, then reading gives null', () => {
    expect(readContinueRecord()).toBeNull();
  });

  it('when the stored record is not JSON, then reading reports an error', () => {
    sessionStorage.setItem(KEY, '{broken');
    expect(() => readContinueRecord()).toThrow(ContinueRecordError);
  });

  it('when the stored record lacks a content id, then reading reports an error', () => {
    sessionStorage.setItem(KEY, JSON.stringify({ ...record, contentId: undefined }));
    expect(() => readContinueRecord()).toThrow(ContinueRecordError);
  });

  it('when the metadata was stored as a JSON string, then it reads as an object', () => {
    sessionStorage.setItem(
      KEY,
      JSON.stringify({ ...record, metadata: JSON.stringify({ originalMessage: 'hi' }) }),
    );
    expect(readContinueRecord()?.metadata).toEqual({ originalMessage: 'hi' });
  });

  it('when sample records are checked, then the hand-written check agrees with the contracts schema', () => {
    const samples: unknown[] = [
      record,
      { ...record, promptId: null, workspaceId: null },
      { ...record, promptId: undefined, workspaceId: undefined },
      { ...record, contentId: 'bad/id' },
      { ...record, contentId: '' },
      { ...record, workspaceId: 0 },
      { ...record, workspaceId: 1.5 },
      { ...record, workspaceId: '2' },
      { ...record, workspaceId: 'x' },
      { ...record, model: 4 },
      { ...record, initialContent: undefined },
      { ...record, contentTitle: null },
      [],
      null,
      'text',
    ];
    for (const sample of samples) {
      expect(toContinueRecord(sample) !== null).toBe(ContinueRecord.safeParse(sample).success);
    }
  });
});
