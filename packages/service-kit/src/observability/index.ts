export {
  metrics,
  registry as metricsRegistry,
  ensureDefaultMetrics,
  renderMetrics,
  NO_ROUTE,
  type ProviderCallLabels,
  type ProviderCallTimer,
} from './metrics';
export { metricsHandler, startMetricsServer, METRICS_PATH } from './endpoint';
export { observabilityEnv, type ObservabilityConfig } from './config';
export { observeRequests, observeServerRequest, type ServerRequestObservation } from './http';
export {
  currentTraceId,
  extractTraceContext,
  initTracing,
  injectTraceContext,
  otlpTracesUrl,
  recordSpans,
  tracingActive,
  TRACEPARENT_HEADER,
  type SpanRecorder,
  type TracingHandle,
  type TracingOptions,
} from './tracing';
