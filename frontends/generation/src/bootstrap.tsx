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
        <BrowserRouter basename="/remotes/generation">
          <StandaloneRemote
            name="generation"
            links={[
              { to: '/text-generation', label: 'Text Generation' },
              { to: '/image-generation', label: 'Image Generation' },
              { to: '/stats', label: 'Stats' },
              { to: '/history?type=text', label: 'History' },
            ]}
          >
            <App />
          </StandaloneRemote>
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  ),
);
