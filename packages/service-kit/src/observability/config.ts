import { z } from 'zod';
import { envPort, envString, envUrl } from '../config';

/**
 * The observability keys every process (services and gateway) reads, all optional.
 * `runService` parses them beside the service's own schema.
 */
export const observabilityEnv = z.object({
  /**
   * Serves `GET /metrics` on this port too (0 = any free port), on its own server. The
   * gateway serves metrics ONLY there (never on its public port); a service also answers
   * `/metrics` on its main port, which is internal.
   */
  METRICS_PORT: envPort.optional(),
  /** Where the metrics server listens; defaults to `HOST`. */
  METRICS_HOST: envString.optional(),
  /** An OTLP/HTTP receiver (`http://127.0.0.1:4318`): traces go to `<it>/v1/traces`. Unset: no export. */
  OTEL_EXPORTER_OTLP_ENDPOINT: envUrl(['http', 'https']).optional(),
  /** The full traces URL, when it is not `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: envUrl(['http', 'https']).optional(),
  /** `service.name` of the spans; defaults to the service's name (`gateway`, `prompt`, …). */
  OTEL_SERVICE_NAME: envString.optional(),
});

export type ObservabilityConfig = z.output<typeof observabilityEnv>;
