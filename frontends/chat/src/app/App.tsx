import { Route } from 'react-router-dom';
import { RemoteRoutes } from '@aict/web-kit';
import { ChatPage } from '../features/chat/components/chat-page';
import { HistoryPanel } from '../features/history/components/history-panel';

/**
 * The chat remote's screens, exposed as './App'. Paths are matched from the site root
 * (RemoteRoutes); the shell's route table (frontends/shell/src/app/routes.tsx) lists the same paths.
 */
export default function App() {
  return (
    <RemoteRoutes>
      <Route index element={<ChatPage renderHistory={(slot) => <HistoryPanel {...slot} />} />} />
      <Route path="*" element={null} />
    </RemoteRoutes>
  );
}
