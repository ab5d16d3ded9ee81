import {
  Component,
  lazy,
  Suspense,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Spinner } from '../ui/feedback';
import { useKitTranslation } from '../i18n/use-kit-translation';

export type RemoteModule = { default: ComponentType };

export interface RemoteBoundaryProps {
  /** The remote's name, for messages and logs ('chat', 'generation', 'admin'). */
  name: string;
  /** Loads the remote's module (e.g. with the federation runtime's loadRemote('chat/App')); called again on Retry. */
  load: () => Promise<RemoteModule>;
  /** Shown while the remote loads; a spinner by default. */
  fallback?: ReactNode;
}

interface State {
  error: Error | null;
  Remote: LazyExoticComponent<ComponentType>;
}

/**
 * Mounts a federated remote: Suspense while it loads, and an error boundary that shows the
 * error with a Retry button (which imports it again) when it fails to load or to render, so
 * a broken remote never takes the shell down.
 */
export class RemoteBoundary extends Component<RemoteBoundaryProps, State> {
  override state: State = { error: null, Remote: lazy(this.props.load) };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`The remote '${this.props.name}' failed`, error, info.componentStack);
  }

  retry = () => {
    this.setState({ error: null, Remote: lazy(this.props.load) });
  };

  override render() {
    const { error, Remote } = this.state;
    if (error) return <RemoteError name={this.props.name} error={error} onRetry={this.retry} />;
    return (
      <Suspense fallback={this.props.fallback ?? <RemoteLoading />}>
        <Remote />
      </Suspense>
    );
  }
}

function RemoteLoading() {
  return (
    <div className="wk-remote-loading">
      <Spinner size="lg" />
    </div>
  );
}

function RemoteError({
  name,
  error,
  onRetry,
}: {
  name: string;
  error: Error;
  onRetry: () => void;
}) {
  const { t } = useKitTranslation();
  return (
    <div className="wk-remote-error" role="alert">
      <Card>
        <CardHeader>
          <CardTitle>{t('kit.remoteFailedTitle')}</CardTitle>
          <CardDescription>{t('kit.remoteFailedText', { name })}</CardDescription>
        </CardHeader>
        <CardContent>
          <pre className="wk-remote-error__message">{error.message}</pre>
          <Button onClick={onRetry}>{t('common.retry')}</Button>
        </CardContent>
      </Card>
    </div>
  );
}
