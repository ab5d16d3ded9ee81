import {
  BrandVoiceBody,
  brandVoiceInstruction,
  voiceFlagsOf,
  type BrandVoice,
} from './brand-voice';

const buildVoice = (overrides: Partial<BrandVoice> = {}): BrandVoice => ({
  tone: '',
  avoidWords: [],
  useWords: [],
  example: '',
  ...overrides,
});

describe('brandVoiceInstruction', () => {
  it('when the brand voice is empty, then there is no instruction', () => {
    expect(brandVoiceInstruction(buildVoice())).toBeNull();
    expect(brandVoiceInstruction(null)).toBeNull();
  });

  it('when fields are set, then each appears on its own line, empty ones left out', () => {
    expect(
      brandVoiceInstruction(
        buildVoice({ tone: 'Warm', avoidWords: ['synergy', 'leverage'], example: 'Hi.\nBye.' }),
      ),
    ).toBe(
      [
        'Write in the brand voice of this workspace.',
        'Tone: Warm',
        'Never use these words: synergy, leverage',
        'Example of the voice:\nHi.\nBye.',
      ].join('\n'),
    );
  });
});

describe('voiceFlagsOf', () => {
  const voice = buildVoice({ avoidWords: ['ai', 'game changer', 'C++', 'café'] });

  it('when the text holds words to avoid in any case, then they are flagged as written in the voice', () => {
    expect(voiceFlagsOf('AI is a Game  changer? No: a GAME CHANGER.', voice)).toEqual([
      'ai',
      'game changer',
    ]);
  });

  it('when a word to avoid is only part of another word, then it is not flagged', () => {
    expect(voiceFlagsOf('She said the cafés were fair', voice)).toEqual([]);
  });

  it('when a word to avoid holds punctuation or accents, then it is still found', () => {
    expect(voiceFlagsOf('We like C++ at the Café.', voice)).toEqual(['C++', 'café']);
  });
});

describe('BrandVoiceBody', () => {
  it('when words are repeated or padded, then they are trimmed and kept once', () => {
    expect(BrandVoiceBody.parse({ avoidWords: [' a ', 'A', 'b'] })).toEqual({
      tone: '',
      avoidWords: ['a', 'b'],
      useWords: [],
      example: '',
    });
  });

  it('when an entry is blank, then it is refused', () => {
    expect(BrandVoiceBody.safeParse({ useWords: ['  '] }).success).toBe(false);
  });
});
