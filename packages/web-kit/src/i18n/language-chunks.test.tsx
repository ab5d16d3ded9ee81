import type * as I18nModule from './i18n';

// Dutch is not in the page's first JavaScript: its texts are a chunk of their own, fetched
// when the page is in Dutch (before the first render) or when someone switches to it. Each
// test loads a fresh copy of the module, without the texts the component tests add up front.

function freshI18n(): typeof I18nModule {
  let fresh!: typeof I18nModule;
  jest.isolateModules(() => {
    fresh = jest.requireActual<typeof I18nModule>('./i18n');
  });
  return fresh;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => localStorage.clear());

describe('languages loaded when shown', () => {
  it('when the page starts, then only English is there, and Dutch arrives when asked for', async () => {
    const { i18n, languageLoaded, loadLanguage } = freshI18n();
    expect(languageLoaded('en')).toBe(true);
    expect(languageLoaded('nl')).toBe(false);
    await loadLanguage('nl');
    expect(languageLoaded('nl')).toBe(true);
    expect(i18n.getFixedT('nl')('shell.nav.stats')).toBe('Statistieken');
  });

  it('when someone switches to Dutch, then every text switches at once when its texts have arrived, never half', async () => {
    const { i18n, applyLanguage } = freshI18n();
    const seen: string[] = [];
    i18n.on('languageChanged', () => seen.push(i18n.t('shell.nav.stats')));
    applyLanguage('nl');
    expect(i18n.t('shell.nav.stats')).toBe('Stats');
    expect(document.documentElement.lang).toBe('nl');
    expect(localStorage.getItem('language')).toBe('nl');
    await settle();
    expect(i18n.language).toBe('nl');
    expect(seen).toEqual(['Statistieken']);
  });

  it('when Dutch is chosen and English again before the Dutch texts arrive, then the page stays English', async () => {
    const { i18n, applyLanguage } = freshI18n();
    applyLanguage('nl');
    applyLanguage('en');
    await settle();
    expect(i18n.language).toBe('en');
    expect(i18n.t('shell.nav.stats')).toBe('Stats');
  });

  it('when the stored language is Dutch, then the page is ready to render in Dutch once languageReady resolves', async () => {
    localStorage.setItem('language', 'nl');
    const { i18n, languageReady } = freshI18n();
    expect(i18n.language).toBe('nl');
    await languageReady();
    expect(i18n.t('shell.nav.stats')).toBe('Statistieken');
  });
});
