import type { Connection } from 'mongoose';
import { markDatabaseFailure } from '../unavailable';
import { storeMetrics } from './metrics';

const COMMAND = /^[A-Za-z]{1,40}$/;
const INSTRUMENTED = Symbol('aict.mongo.instrumented');

/** Driver options that make the client emit command events (`connectMongo` sets them). */
export const MONGO_MONITOR_OPTIONS = { monitorCommands: true } as const;

/**
 * Records `mongodb_command_duration_seconds` from the driver's command monitoring (the
 * connection must be opened with `monitorCommands: true`), and marks a failed command's error
 * as the database's (a bare socket error then answers DATABASE.UNAVAILABLE). Idempotent per
 * connection.
 */
export function instrumentMongo(connection: Connection): void {
  const client = connection.getClient() as ReturnType<Connection['getClient']> & {
    [INSTRUMENTED]?: true;
  };
  if (client[INSTRUMENTED]) return;
  client[INSTRUMENTED] = true;
  const name = (command: string) => (COMMAND.test(command) ? command : 'other');
  client.on('commandSucceeded', (event) =>
    storeMetrics.mongoCommand(name(event.commandName), true, event.duration / 1000),
  );
  client.on('commandFailed', (event) => {
    storeMetrics.mongoCommand(name(event.commandName), false, event.duration / 1000);
    markDatabaseFailure(event.failure);
  });
}
