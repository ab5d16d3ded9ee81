// Component tests of the generation remote: CSS modules become empty class maps (jest cannot
// load CSS). Import this first in a test file, before the components.
import path from 'node:path';
import { configure } from '@testing-library/react';
import { mockCssModules } from '@aict/web-kit/testing';

mockCssModules(path.resolve(__dirname, '..'));

// The machine running the tests is shared: give screens time to load before a find fails.
configure({ asyncUtilTimeout: 5000 });
