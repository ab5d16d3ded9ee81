import { z } from 'zod';
import { CreatePromptBody, ReferenceImageParams, UpdatePromptBody } from './prompts';

function buildPromptBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Product description',
    template: 'Describe {product} for {audience}.',
    category: 'Marketing',
    contentType: 'text',
    model: 'gpt-4o',
    ...overrides,
  };
}

function messages(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  if (result.success) return {};
  return Object.fromEntries(
    result.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
  );
}

describe('CreatePromptBody', () => {
  it('when a valid prompt is sent, then it is trimmed and the flags default to false', () => {
    const body = CreatePromptBody.parse(buildPromptBody({ name: '  Ad copy  ', workspaceId: '3' }));

    expect(body).toMatchObject({
      name: 'Ad copy',
      isPublic: false,
      isDefault: false,
      workspaceId: 3,
    });
  });

  it('when required fields are blank or missing, then the SPEC messages are given', () => {
    const result = CreatePromptBody.safeParse({
      name: '   ',
      template: '',
      category: '',
      contentType: 'text',
    });

    expect(messages(result)).toEqual({
      name: 'Name is required',
      template: 'Template is required',
      category: 'Category is required',
      model: 'Model is required',
    });
  });

  it('when an image model is chosen for a text prompt, then the model is refused with the allowed list', () => {
    const result = CreatePromptBody.safeParse(buildPromptBody({ model: 'dall-e-3' }));

    expect(messages(result)).toEqual({
      model: 'Model must be one of gpt-4o, gpt-4-turbo, gpt-3.5-turbo for text prompts',
    });
  });

  it('when a text model is chosen for an image prompt, then the model is refused', () => {
    const result = CreatePromptBody.safeParse(
      buildPromptBody({ contentType: 'image', model: 'gpt-4o' }),
    );

    expect(messages(result)).toEqual({
      model: 'Model must be one of dall-e-3, gpt-image-1 for image prompts',
    });
  });

  it('when an image model is chosen for an image prompt, then it is accepted', () => {
    expect(
      CreatePromptBody.safeParse(buildPromptBody({ contentType: 'image', model: 'gpt-image-1' }))
        .success,
    ).toBe(true);
  });

  it('when the category is not one of the four, then the list is named', () => {
    const result = CreatePromptBody.safeParse(buildPromptBody({ category: 'Sales' }));

    expect(messages(result).category).toBe(
      'Category must be one of: Marketing, Technical, Creative, Business',
    );
  });

  it('when the template is malformed, then the parser message is given', () => {
    const result = CreatePromptBody.safeParse(buildPromptBody({ template: 'Hi {name' }));

    expect(messages(result).template).toBe(
      "Unclosed '{' at character 4. Write '{{' for a literal brace.",
    );
  });

  it('when the template has more variables than a generation takes, then the limit is named', () => {
    const template = Array.from({ length: 51 }, (_, i) => `{v${i}}`).join(' ');

    expect(messages(CreatePromptBody.safeParse(buildPromptBody({ template }))).template).toBe(
      'A template can have at most 50 variables',
    );
  });

  it('when the body is not an object, then it is refused without throwing', () => {
    expect(CreatePromptBody.safeParse(null).success).toBe(false);
  });
});

describe('UpdatePromptBody', () => {
  it('when only some fields are sent, then no defaults are added', () => {
    expect(UpdatePromptBody.parse({ name: 'New' })).toEqual({ name: 'New' });
  });

  it('when references are cleared, then null and an empty list are accepted', () => {
    expect(UpdatePromptBody.parse({ referenceImageUrl: null, referenceImageUrls: [] })).toEqual({
      referenceImageUrl: null,
      referenceImageUrls: [],
    });
  });

  it('when both content type and model are sent and mismatch, then the model is refused', () => {
    const result = UpdatePromptBody.safeParse({ contentType: 'image', model: 'gpt-4o' });

    expect(messages(result).model).toMatch(/^Model must be one of dall-e-3/);
  });

  it('when a sent name is blank, then it is refused', () => {
    expect(messages(UpdatePromptBody.safeParse({ name: ' ' }))).toEqual({
      name: 'Name is required',
    });
  });
});

describe('ReferenceImageParams', () => {
  it('when the index is a path string, then it becomes a number', () => {
    expect(ReferenceImageParams.parse({ id: 'p1', index: '3' })).toEqual({ id: 'p1', index: 3 });
  });

  it('when the index is past the fourth image, then it is refused', () => {
    expect(ReferenceImageParams.safeParse({ id: 'p1', index: '4' }).success).toBe(false);
  });
});
