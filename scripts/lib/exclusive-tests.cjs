// Test files that stop something every other test uses (the machine's RabbitMQ), as jest
// path patterns: `npm test` (scripts/test.mjs) runs every other file in parallel first, with
// AICT_TESTS=shared so that jest.config.js leaves these out, then these alone.
module.exports = ['/packages/service-kit/src/messaging/broker-restart\\.test\\.ts$'];
