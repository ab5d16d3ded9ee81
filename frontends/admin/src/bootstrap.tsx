import '@aict/web-kit/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders, i18n, StandaloneRemote, languageReady } from '@aict/web-kit';
import App from './app/App';

// The page's language first (its texts may be a chunk of their own).
void languageReady().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders>
        <BrowserRouter basename="/remotes/admin">
          <StandaloneRemote
            name="admin"
            links={[
              { to: '/prompts', label: i18n.t('admin.standaloneLinks.prompts') },
              { to: '/prompts/create', label: i18n.t('admin.standaloneLinks.create') },
              { to: '/settings', label: i18n.t('admin.standaloneLinks.settings') },
            ]}
          >
            <App />
          </StandaloneRemote>
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  ),
);
