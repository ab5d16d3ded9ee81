import '@aict/web-kit/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders, StandaloneRemote, languageReady } from '@aict/web-kit';
import App from './app/App';

// The page's language first (its texts may be a chunk of their own).
void languageReady().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders>
        <BrowserRouter basename="/remotes/chat">
          <StandaloneRemote name="chat" links={[{ to: '/', label: 'Chat' }]}>
            <App />
          </StandaloneRemote>
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  ),
);
