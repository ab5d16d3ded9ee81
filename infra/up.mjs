#!/usr/bin/env node
// Brings up the local infrastructure (idempotent): FerretDB, MinIO, RabbitMQ.
import { infraUp, infraSettings } from './lib/servers.mjs';

const started = Date.now();
try {
  const status = await infraUp();
  const s = infraSettings();
  console.log(
    [
      `infra ready in ${((Date.now() - started) / 1000).toFixed(1)} s:`,
      `  FerretDB  mongodb://${s.ferret.host}:${s.ferret.port}  (${status.FerretDB})`,
      `  MinIO     http://${s.minio.host}:${s.minio.port}  (${status.MinIO})`,
      `  RabbitMQ  amqp://${s.rabbit.host}:${s.rabbit.port}  (${status.RabbitMQ})`,
    ].join('\n'),
  );
} catch (err) {
  console.error(`infra: ${err.message}`);
  process.exit(1);
}
