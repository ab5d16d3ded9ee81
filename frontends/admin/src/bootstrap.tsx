import '@aict/web-kit/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders, StandaloneRemote } from '@aict/web-kit';
import App from './app/App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <BrowserRouter basename="/remotes/admin">
        <StandaloneRemote
          name="admin"
          links={[
            { to: '/prompts', label: 'Prompts' },
            { to: '/prompts/create', label: 'Create prompt' },
            { to: '/settings', label: 'Settings' },
          ]}
        >
          <App />
        </StandaloneRemote>
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
