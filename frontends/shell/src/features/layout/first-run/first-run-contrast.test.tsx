import path from 'node:path';
import { loadStylesheet } from '@aict/web-kit/testing';

// The set-up checklist's step marks: an open step's empty circle is what tells it from a done
// one at a glance, so it keeps WCAG 1.4.11's 3:1 against the card in both themes (it was the
// border colour, about 1.2:1, hardly visible in the dark theme).

/** A CSS colour `#rrggbb` as its WCAG relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The theme colour a declaration names with `var(--x)` (jsdom leaves var() unresolved). */
function themeColour(declaration: string): string {
  const name = /var\((--[\w-]+)\)/.exec(declaration)?.[1];
  if (!name) throw new Error(`no theme colour in '${declaration}'`);
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

describe('set-up checklist step marks', () => {
  const removers: Array<() => void> = [];
  beforeAll(() => {
    removers.push(loadStylesheet(require.resolve('@aict/web-kit/styles.css')));
    removers.push(loadStylesheet(path.resolve(__dirname, 'first-run.module.css')));
  });
  afterAll(() => removers.forEach((remove) => remove()));

  /** The declarations of the module's rule for `selector`, as written. */
  function declared(selector: string): CSSStyleDeclaration {
    for (const sheet of Array.from(document.styleSheets))
      for (const rule of Array.from(sheet.cssRules))
        if (rule instanceof CSSStyleRule && rule.selectorText === selector) return rule.style;
    throw new Error(`no rule ${selector}`);
  }

  it.each(['light', 'dark'])(
    'when a step is open in the %s theme, then its mark stands out from the card by at least 3:1',
    (theme) => {
      document.documentElement.className = theme;
      try {
        const ring = themeColour(declared('.stepMark').getPropertyValue('border'));
        const card = themeColour(declared('.checklist').getPropertyValue('background'));
        expect(contrast(ring, card)).toBeGreaterThanOrEqual(3);
      } finally {
        document.documentElement.className = '';
      }
    },
  );
});
