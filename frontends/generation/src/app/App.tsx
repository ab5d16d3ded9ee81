import { Route } from 'react-router-dom';
import { RemoteRoutes } from '@aict/web-kit';
import { GalleryPage } from '../features/gallery/components/gallery-page';
import { HistoryPage } from '../features/history/components/history-page';
import { ImageGenerationPage } from '../features/image-generation/components/image-generation-page';
import { StatsPage } from '../features/stats/components/stats-page';
import { TextGenerationPage } from '../features/text-generation/components/text-generation-page';

/**
 * The generation remote's screens, exposed as './App'. Paths are matched from the site root
 * (RemoteRoutes); the shell's route table (frontends/shell/src/app/routes.tsx) lists the same paths.
 */
export default function App() {
  return (
    <RemoteRoutes>
      <Route path="text-generation" element={<TextGenerationPage />} />
      <Route path="image-generation" element={<ImageGenerationPage />} />
      <Route path="stats" element={<StatsPage />} />
      <Route path="history" element={<HistoryPage />} />
      <Route path="gallery" element={<GalleryPage />} />
      <Route path="*" element={null} />
    </RemoteRoutes>
  );
}
