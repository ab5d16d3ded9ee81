// Component tests of the chat remote: CSS modules become empty class maps (jest cannot load
// CSS). Import this first in a test file, before the components.
import path from 'node:path';
import { mockCssModules } from '@aict/web-kit/testing';

mockCssModules(path.resolve(__dirname, '..'));
