import {
  GenerateBody,
  GenerateReplyBody,
  GenerateResponse,
  GenerateWithImageFields,
  inputFieldName,
} from './generation';

describe('GenerateBody', () => {
  it('when no prompt is chosen, then a prompt is asked for', () => {
    const result = GenerateBody.safeParse({ inputs: {} });

    expect(result.error?.issues[0]).toMatchObject({
      path: ['promptId'],
      message: 'Please select a prompt',
    });
  });

  it('when only a prompt is sent, then inputs and attachments default to empty', () => {
    expect(GenerateBody.parse({ promptId: 'p1' })).toEqual({
      promptId: 'p1',
      inputs: {},
      attachments: [],
    });
  });

  it('when 11 attachment ids are sent, then they are refused', () => {
    const attachments = Array.from({ length: 11 }, (_, i) => `a${i}`);

    expect(GenerateBody.safeParse({ promptId: 'p1', attachments }).success).toBe(false);
  });
});

describe('GenerateReplyBody', () => {
  it('when the message is blank and nothing is attached, then a message is asked for', () => {
    const result = GenerateReplyBody.safeParse({ message: '   ', parentContentId: 'c1' });

    expect(result.error?.issues[0]).toMatchObject({
      path: ['message'],
      message: 'Please enter a message',
    });
  });

  it('when the message is blank but a file is attached, then it is accepted', () => {
    expect(GenerateReplyBody.safeParse({ message: '', attachments: ['a1'] }).success).toBe(true);
  });

  it('when no model is sent, then gpt-4o is used', () => {
    expect(GenerateReplyBody.parse({ message: 'hi' }).model).toBe('gpt-4o');
  });

  it('when an image model is sent for a reply, then it is refused', () => {
    expect(GenerateReplyBody.safeParse({ message: 'hi', model: 'dall-e-3' }).success).toBe(false);
  });
});

describe('GenerateWithImageFields', () => {
  it('when multipart fields hold flat inputs[name] keys, then they are gathered into inputs', () => {
    const fields = {
      promptId: 'p1',
      model: 'gpt-image-1',
      workspaceId: '4',
      [inputFieldName('subject')]: 'a cat',
      [inputFieldName('style name')]: 'pop art',
    };

    expect(GenerateWithImageFields.parse(fields)).toEqual({
      promptId: 'p1',
      model: 'gpt-image-1',
      workspaceId: 4,
      inputs: { subject: 'a cat', 'style name': 'pop art' },
    });
  });

  it('when the parser already nested the inputs and the workspace is empty, then both are read', () => {
    const fields = { promptId: 'p1', model: 'dall-e-3', workspaceId: '', inputs: { subject: 'x' } };

    expect(GenerateWithImageFields.parse(fields)).toMatchObject({
      workspaceId: null,
      inputs: { subject: 'x' },
    });
  });
});

describe('GenerateResponse', () => {
  it('when a result has neither text nor image, then it is refused', () => {
    expect(GenerateResponse.safeParse({ result: {}, content: { id: 'c1' } }).success).toBe(false);
  });

  it('when an image result comes with base64 data, then it is accepted', () => {
    const response = {
      result: { imageUrl: '/api/files/x.png', b64_json: 'AAAA' },
      content: { id: 'c1' },
    };

    expect(GenerateResponse.parse(response)).toEqual(response);
  });
});
