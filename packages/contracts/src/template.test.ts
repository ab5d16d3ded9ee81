import {
  fillTemplate,
  isMalformedTemplate,
  parseTemplate,
  TemplateError,
  templateError,
} from './template';

describe('parseTemplate', () => {
  it('when a template has variables, then it lists each once in order of first appearance', () => {
    const parsed = parseTemplate('Write about {topic} for {audience}, then {topic} again.');

    expect(parsed).toEqual({
      variables: ['topic', 'audience'],
      hasFile: false,
      hasLanguage: false,
    });
  });

  it('when a template has no braces, then it has no variables', () => {
    expect(parseTemplate('Just text.').variables).toEqual([]);
  });

  it('when a template uses {file} and {language}, then they are listed and flagged', () => {
    const parsed = parseTemplate('Draw {subject} like {file}, captions in {language}');

    expect(parsed).toEqual({
      variables: ['subject', 'file', 'language'],
      hasFile: true,
      hasLanguage: true,
    });
  });

  it('when names hold spaces, hyphens or underscores, then they are valid', () => {
    expect(parseTemplate('{product name} {target-audience} {_tone2}').variables).toEqual([
      'product name',
      'target-audience',
      '_tone2',
    ]);
  });

  it('when blanks surround a name inside the braces, then they are ignored', () => {
    expect(parseTemplate('{ topic } and {topic}').variables).toEqual(['topic']);
  });

  it('when names differ only in case, then they are different variables', () => {
    expect(parseTemplate('{Name} {name}').variables).toEqual(['Name', 'name']);
  });

  it('when braces are doubled, then they are literal text and not variables', () => {
    expect(parseTemplate('JSON: {{"a": {value}}} and {{name}}').variables).toEqual(['value']);
  });

  it('when a name is 64 characters long, then it is valid', () => {
    const name = 'a'.repeat(64);

    expect(parseTemplate(`{${name}}`).variables).toEqual([name]);
  });

  it.each([
    ['an unclosed brace', 'Hello {name', 'UNCLOSED_BRACE', 6],
    ['a lone closing brace', 'Hello name}', 'UNMATCHED_CLOSING_BRACE', 10],
    ['an extra closing brace', '{name}} end', 'UNMATCHED_CLOSING_BRACE', 6],
    ['empty braces', 'Hello {}', 'EMPTY_VARIABLE', 6],
    ['blank braces', 'Hello {  }', 'EMPTY_VARIABLE', 6],
    ['nested braces', '{outer {inner}}', 'NESTED_BRACE', 7],
    ['a name starting with a digit', '{1st}', 'INVALID_VARIABLE_NAME', 0],
    ['a name with punctuation', '{"key": 1}', 'INVALID_VARIABLE_NAME', 0],
    ['a name over 64 characters', `{${'a'.repeat(65)}}`, 'INVALID_VARIABLE_NAME', 0],
    ['a name across lines', '{first\nsecond}', 'INVALID_VARIABLE_NAME', 0],
  ])('when a template has %s, then it throws a TemplateError', (_case, template, code, index) => {
    let thrown: unknown;
    try {
      parseTemplate(template);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(TemplateError);
    expect(thrown).toMatchObject({ name: 'TemplateError', code, index });
  });

  it('when a template is malformed, then the message names the place and the escape', () => {
    expect(templateError('abc {')?.message).toBe(
      "Unclosed '{' at character 5. Write '{{' for a literal brace.",
    );
  });
});

describe('isMalformedTemplate', () => {
  it('when a template is well formed, then it is not malformed', () => {
    expect(isMalformedTemplate('{{literal}} {name}')).toBe(false);
    expect(templateError('{name}')).toBeNull();
  });

  it('when a template is malformed, then it says so', () => {
    expect(isMalformedTemplate('{name')).toBe(true);
  });
});

describe('fillTemplate', () => {
  it('when inputs are given, then every occurrence of each variable is replaced', () => {
    const text = fillTemplate('{a} and {b} and {a}', { a: 'x', b: 'y' });

    expect(text).toBe('x and y and x');
  });

  it('when an input is missing, then its variable becomes empty', () => {
    expect(fillTemplate('Hi {name}!', {})).toBe('Hi !');
  });

  it('when blanks surround a name, then the input of the trimmed name fills it', () => {
    expect(fillTemplate('Hi { name }', { name: 'Ann' })).toBe('Hi Ann');
  });

  it('when the template has {file}, then it is removed from the text', () => {
    expect(fillTemplate('Draw {subject}{file}.', { subject: 'a cat', file: 'ignored' })).toBe(
      'Draw a cat.',
    );
  });

  it('when a language option is given, then it fills {language} before the inputs', () => {
    const template = 'Answer in {language}.';

    expect(fillTemplate(template, { language: 'en' }, { language: 'nl' })).toBe('Answer in nl.');
    expect(fillTemplate(template, { language: 'en' })).toBe('Answer in en.');
    expect(fillTemplate(template, {})).toBe('Answer in .');
  });

  it('when braces are doubled, then they come out single', () => {
    expect(fillTemplate('{{"x": "{v}"}} {{v}}', { v: '1' })).toBe('{"x": "1"} {v}');
  });

  it('when an input value holds braces, then it is inserted as is', () => {
    expect(fillTemplate('{a}', { a: '{b}' })).toBe('{b}');
  });

  it('when a variable is named like an Object property, then only own inputs fill it', () => {
    expect(fillTemplate('[{constructor}][{__proto__}]', {})).toBe('[][]');
  });

  it('when the template is malformed, then it throws a TemplateError', () => {
    expect(() => fillTemplate('{oops', {})).toThrow(TemplateError);
  });
});
