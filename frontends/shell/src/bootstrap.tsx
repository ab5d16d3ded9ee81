import '@aict/web-kit/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { languageReady } from '@aict/web-kit';
import { App } from './app/App';

// The page's language first (its texts may be a chunk of their own).
void languageReady().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
