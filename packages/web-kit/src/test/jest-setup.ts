// Every component test (the `web` jest project): the machine running the tests is shared with
// the services' tests, so a screen gets time to load before a find fails, and a test before
// it is stopped.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });
jest.setTimeout(20_000);
