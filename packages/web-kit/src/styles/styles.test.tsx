import path from 'node:path';
import { loadStylesheet } from '../test/css-modules';

describe('web-kit styles', () => {
  it('when a field is focused or scrolled to, then the page keeps it clear of the sticky header', () => {
    const removeCss = loadStylesheet(path.resolve(__dirname, 'index.css'));
    const style = getComputedStyle(document.documentElement);
    expect(style.scrollPaddingTop).toBe('calc(var(--wk-header-height) + 2.5rem)');
    expect(style.getPropertyValue('--wk-header-height').trim()).toBe('3.75rem');
    removeCss();
  });
});
