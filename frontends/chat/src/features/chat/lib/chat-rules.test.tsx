import { canSend, conversationHistory, replyModel, type ScreenMessage } from './chat-rules';

// Rules of SPEC §4 Chat, §5 Chat sending and §7 generate-reply (pure; no rendering).

describe('chat rules', () => {
  it('when the text is blank and no file is attached, then the message cannot be sent', () => {
    expect(canSend('  \n ', 0)).toBe(false);
    expect(canSend('  \n ', 1)).toBe(true);
    expect(canSend('Hallo', 0)).toBe(true);
  });

  it("when the default prompt has no model, then replies use 'gpt-4o'", () => {
    expect(replyModel(undefined)).toBe('gpt-4o');
    expect(replyModel(null)).toBe('gpt-4o');
    expect(replyModel('gpt-4-turbo')).toBe('gpt-4-turbo');
  });

  it('when the history is sent, then it holds finished messages as role and content only', () => {
    const messages: ScreenMessage[] = [
      { id: '1', role: 'user', content: 'Vraag', attachments: ['a.pdf'] },
      { id: '2', role: 'assistant', content: 'Half', stopped: true },
      { id: '3', role: 'user', content: 'Nog een' },
      { id: '4', role: 'assistant', content: '', streaming: true },
    ];
    expect(conversationHistory(messages)).toEqual([
      { role: 'user', content: 'Vraag' },
      { role: 'assistant', content: 'Half' },
      { role: 'user', content: 'Nog een' },
    ]);
  });
});
