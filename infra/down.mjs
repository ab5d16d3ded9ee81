#!/usr/bin/env node
import { infraDown } from './lib/servers.mjs';

const stopped = await infraDown();
console.log(
  `infra: stopped ${
    Object.entries(stopped)
      .filter(([, s]) => s)
      .map(([n]) => n)
      .join(', ') || 'nothing'
  }`,
);
