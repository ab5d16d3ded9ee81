import { stack } from '../support/browser';
import { chatWorkspace, signIn, type ApiClient } from '../support/api';
import { uniqueName } from '../support/session';

// Issue 8, traces: every process of the end-to-end stack exports its spans over OTLP/HTTP to
// the stack's control server (e2e/support/global-setup.mjs). One generation makes one trace
// that spans the gateway, the generation service, RabbitMQ and the content service; the
// request id the client sees is its trace id.

interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
}

async function spansOf(traceId: string, until: (spans: Span[]) => boolean): Promise<Span[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await fetch(`${stack().controlUrl}/spans?traceId=${traceId}`);
    const spans = (await res.json()) as Span[];
    if (until(spans) || Date.now() > deadline) return spans;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `span` and its ancestors among `spans`, each as `service:name`. */
function ancestry(spans: Span[], span: Span): string[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain: Span[] = [];
  for (let at: Span | undefined = span; at; at = byId.get(at.parentSpanId ?? '')) chain.push(at);
  return chain.map((s) => `${s.service}:${s.name}`);
}

describe('one trace across the services', () => {
  let admin: ApiClient;
  let ws: { workspaceId: number; promptId: string };

  beforeAll(async () => {
    const { url, superAdmin } = stack();
    admin = await signIn(url, superAdmin.username, superAdmin.password);
    ws = await chatWorkspace(admin, uniqueName('Trace '));
  });

  it('when a generation is made, then one trace spans gateway → generation → RabbitMQ → content', async () => {
    const answer = await admin.call<{ content: { id: string } }>('POST', '/api/generate', {
      body: {
        promptId: ws.promptId,
        inputs: { message: 'Trace me' },
        language: 'nl',
        workspaceId: ws.workspaceId,
      },
      workspaceId: ws.workspaceId,
    });
    expect(answer.status).toBe(200);
    // The request id the client gets is the trace id (32 hex digits).
    const traceId = answer.headers.get('x-request-id')!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    const services = (spans: Span[]) => new Set(spans.map((s) => s.service));
    // Each process exports its spans in its own batches, when it will: a consumer's span
    // can arrive before the span it descends from (the publish, the request), so wait for
    // both chains to be whole.
    const spans = await spansOf(traceId, (all) => {
      const served = all.find((s) => s.name === 'serve content.store');
      const consumed = all.find((s) => s.name === 'process generation.completed');
      return (
        ['gateway', 'generation', 'content'].every((s) => services(all).has(s)) &&
        served !== undefined &&
        ancestry(all, served).some((name) => name.startsWith('gateway:POST ')) &&
        consumed !== undefined &&
        all.some((s) => s.spanId === consumed.parentSpanId)
      );
    });
    expect([...services(spans)]).toEqual(
      expect.arrayContaining(['gateway', 'generation', 'content']),
    );

    const byId = new Map(spans.map((s) => [s.spanId, s]));
    // RabbitMQ request/reply: the content service's span is a child of the generation
    // service's request, which descends from the gateway's span of the client's request.
    const served = spans.find((s) => s.name === 'serve content.store')!;
    expect(served.service).toBe('content');
    const chain = ancestry(spans, served);
    expect(chain).toEqual(
      expect.arrayContaining([
        'generation:request content.store',
        expect.stringMatching(/^generation:POST /),
        expect.stringMatching(/^gateway:POST /),
      ]),
    );
    // The event from the outbox is consumed by the content service in the same trace.
    const consumed = spans.find((s) => s.name === 'process generation.completed')!;
    expect(consumed.service).toBe('content');
    expect(byId.get(consumed.parentSpanId ?? '')?.name).toBe('publish generation.completed');
  });
});
