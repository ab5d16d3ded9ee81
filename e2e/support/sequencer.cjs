// The order of the e2e files: jest's (the longest first, from the last runs), except the
// files that run alone (stack-environment.cjs), which come last: earlier, one worker would
// idle while the other finishes the file it runs.
const { basename } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { EXCLUSIVE } = require('./stack-environment.cjs');

class StackSequencer extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const alone = (t) => EXCLUSIVE.includes(basename(t.path));
    return [...sorted.filter((t) => !alone(t)), ...sorted.filter(alone)];
  }
}

module.exports = StackSequencer;
