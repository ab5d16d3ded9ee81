// Every component test (the `web` jest project): the machine running the tests is shared with
// the services' tests, so a screen gets time to load before a find fails, and a test before
// it is stopped.
import { configure } from '@testing-library/react';
import { registerLanguage } from '../i18n/i18n';
import { nl } from '../i18n/nl';

configure({ asyncUtilTimeout: 5000 });
jest.setTimeout(20_000);

// Dutch is a chunk of its own in the pages (loaded before the first render, i18n/i18n.ts);
// the component tests switch to it at once (`applyLanguage('nl')`), so its texts are here.
registerLanguage('nl', nl);
